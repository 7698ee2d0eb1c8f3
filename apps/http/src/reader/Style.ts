import { createHash } from "node:crypto"

/** The reader's one style sheet: light and dark themes follow the system's setting; no web fonts. */
export const READER_CSS = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #57606a; --line: #d8dee4; --soft: #f6f8fa;
  --accent: #1f5fc7; --accent-fg: #ffffff;
  --info: #0b5394; --warning: #8a4b00; --danger: #b3261e; --success: #1a7f37;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9aa5b1; --line: #30363d; --soft: #161b22;
    --accent: #6ea8fe; --accent-fg: #0d1117;
    --info: #79b8ff; --warning: #f0b45a; --danger: #ff8a80; --success: #56d364;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.skip { position: absolute; left: -10000px; top: 0; background: var(--accent); color: var(--accent-fg); padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: 1rem; }
.site-header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem 2rem; padding: .75rem 1.5rem;
  border-bottom: 1px solid var(--line); position: sticky; top: 0; background: var(--bg); z-index: 5; }
.site-title { font-weight: 700; font-size: 1.15rem; color: var(--fg); text-decoration: none; }
.sections ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
.sections a { color: var(--muted); text-decoration: none; padding: .25rem 0; border-bottom: 2px solid transparent; }
.sections a[aria-current="true"] { color: var(--fg); border-bottom-color: var(--accent); }
.sections details { position: relative; }
.sections details ul { position: absolute; flex-direction: column; background: var(--bg); border: 1px solid var(--line);
  padding: .5rem .75rem; border-radius: 6px; min-width: 12rem; }
.sections summary { cursor: pointer; color: var(--muted); }
.search { margin-left: auto; display: flex; gap: .5rem; position: relative; }
.suggestions { position: absolute; top: 2.6rem; right: 0; width: 26rem; max-width: 90vw; background: var(--bg); z-index: 6; }
.suggestions:not(:empty) { border: 1px solid var(--line); border-radius: 6px; padding: .5rem; box-shadow: 0 6px 24px rgba(0, 0, 0, .15); }
.suggestions ul { list-style: none; margin: 0; padding: 0; }
.suggestions a { display: block; padding: .2rem .4rem; border-radius: 4px; text-decoration: none; }
.suggestions a.page { font-weight: 600; color: var(--fg); }
.suggestions a.section { padding-left: 1.2rem; font-size: .9rem; color: var(--muted); }
.suggestions a:hover, .suggestions a:focus { background: var(--soft); }
.suggestions p { margin: .25rem .4rem; color: var(--muted); }
.search input { padding: .4rem .6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--soft); color: var(--fg); min-width: 14rem; }
.search button { padding: .4rem .8rem; border: 0; border-radius: 6px; background: var(--accent); color: var(--accent-fg); cursor: pointer; }
.layout { display: grid; grid-template-columns: 17rem minmax(0, 1fr) 14rem; gap: 2rem; max-width: 86rem; margin: 0 auto; padding: 0 1.5rem; }
.sidebar, .outline { position: sticky; top: 4rem; align-self: start; max-height: calc(100vh - 4rem); overflow: auto; padding: 1.5rem 0; font-size: .93rem; }
.sidebar ul, .outline ul { list-style: none; margin: 0; padding: 0; }
.sidebar ul ul { padding-left: 1rem; border-left: 1px solid var(--line); margin-left: .25rem; }
.sidebar a, .outline a { display: block; padding: .2rem .5rem; color: var(--muted); text-decoration: none; border-radius: 4px; }
.sidebar a:hover, .outline a:hover { color: var(--fg); background: var(--soft); }
.sidebar a[aria-current="page"] { color: var(--accent); background: var(--soft); font-weight: 600; }
.sidebar a.more::after { content: " ›"; }
.sidebar .group { margin: 1rem 0 .25rem; padding: 0 .5rem; font-size: .78rem; font-weight: 700; letter-spacing: .04em; text-transform: uppercase; color: var(--muted); }
.spaces { margin-bottom: 1rem; padding-bottom: 1rem; border-bottom: 1px solid var(--line); }
.outline h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 0 0 .5rem; padding: 0 .5rem; }
.outline .depth-3 a { padding-left: 1.25rem; }
main { padding: 1.5rem 0 4rem; min-width: 0; }
main h1 { font-size: 2.1rem; line-height: 1.2; margin: .5rem 0; }
.description { color: var(--muted); font-size: 1.1rem; margin-top: 0; }
.cover { width: 100%; max-height: 16rem; object-fit: cover; border-radius: 8px; }
article h2, article h3, article h4 { margin-top: 2rem; line-height: 1.3; }
.anchor { margin-left: .4rem; color: var(--muted); text-decoration: none; opacity: 0; }
h2:hover .anchor, h3:hover .anchor, h4:hover .anchor, .anchor:focus { opacity: 1; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: .9rem 1rem; overflow: auto; font-size: .9rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .92em; }
:not(pre) > code { background: var(--soft); padding: .1rem .3rem; border-radius: 4px; }
.code-block { position: relative; margin: 1rem 0; }
.code-block pre { margin: 0; }
.code-block.wrap pre { white-space: pre-wrap; }
.code-title { font-size: .85rem; color: var(--muted); background: var(--soft); border: 1px solid var(--line); border-bottom: 0;
  border-radius: 6px 6px 0 0; padding: .35rem 1rem; }
.code-title + pre { border-radius: 0 0 6px 6px; }
.copy { position: absolute; top: .4rem; right: .4rem; font-size: .8rem; padding: .2rem .5rem; border: 1px solid var(--line);
  border-radius: 4px; background: var(--bg); color: var(--fg); cursor: pointer; }
table { border-collapse: collapse; display: block; overflow: auto; margin: 1rem 0; }
a:not([href]) { color: inherit; }
th, td { border: 1px solid var(--line); padding: .4rem .7rem; }
th { background: var(--soft); }
img { max-width: 100%; height: auto; }
blockquote { margin: 1rem 0; padding: 0 1rem; border-left: 4px solid var(--line); color: var(--muted); }
.hint { border: 1px solid var(--line); border-left: 4px solid var(--info); border-radius: 6px; padding: .25rem 1rem; margin: 1rem 0; background: var(--soft); }
.hint-label { font-weight: 700; margin: .5rem 0 0; color: var(--info); }
.hint-warning { border-left-color: var(--warning); } .hint-warning .hint-label { color: var(--warning); }
.hint-danger { border-left-color: var(--danger); } .hint-danger .hint-label { color: var(--danger); }
.hint-success { border-left-color: var(--success); } .hint-success .hint-label { color: var(--success); }
.tabs { border: 1px solid var(--line); border-radius: 6px; margin: 1rem 0; }
.tab { padding: 0 1rem; border-top: 1px solid var(--line); }
.tab:first-child { border-top: 0; }
.tab-title { font-weight: 600; margin: .75rem 0 0; }
.stepper { list-style: none; counter-reset: step; padding: 0; margin: 1.5rem 0; }
.step { counter-increment: step; position: relative; padding: 0 0 .5rem 2.75rem; margin: 0; }
.step::before { content: counter(step); position: absolute; left: 0; top: 0; width: 1.9rem; height: 1.9rem; border-radius: 50%;
  background: var(--accent); color: var(--accent-fg); font-weight: 700; text-align: center; line-height: 1.9rem; }
.step:not(:last-child)::after { content: ""; position: absolute; left: .9rem; top: 2.3rem; bottom: .3rem; border-left: 2px solid var(--line); }
.step > :first-child { margin-top: 0; padding-top: .15rem; }
.columns { display: flex; gap: 1.5rem; margin: 1.5rem 0; }
.column { flex: 1 1 0; min-width: 0; }
.column > :first-child { margin-top: 0; }
${Array.from({ length: 19 }, (_, i) => (i + 1) * 5).map((w) => `.column-w${w} { flex: 0 1 ${w}%; }`).join("\n")}
details { border: 1px solid var(--line); border-radius: 6px; padding: .5rem 1rem; margin: 1rem 0; }
summary { cursor: pointer; font-weight: 600; }
.math { font-style: italic; }
:is(p, div, h1, h2, h3, h4, h5, h6)[align="center"] { text-align: center; }
:is(p, div, h1, h2, h3, h4, h5, h6)[align="right"] { text-align: right; }
:is(p, div, h1, h2, h3, h4, h5, h6)[align="left"] { text-align: left; }
figure { margin: 1.5rem 0; text-align: center; }
[align="left"] > figure { text-align: left; } [align="right"] > figure { text-align: right; }
figcaption { color: var(--muted); font-size: .9rem; margin-top: .5rem; }
figcaption p { margin: 0; }
[data-with-frame="true"] > figure { background: var(--soft); border: 1px solid var(--line); border-radius: 12px; padding: 1.25rem; }
[data-with-frame="true"] > figure img { border-radius: 6px; box-shadow: 0 2px 12px rgba(0, 0, 0, .12); }
img[data-size="line"] { height: 1.3em; width: auto; vertical-align: middle; }
table[data-full-width="true"] { display: table; width: 100%; }
table[data-header-hidden] thead { display: none; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 1rem; margin: 1.5rem 0; }
.cards-large { grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); }
.card { display: flex; flex-direction: column; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; color: var(--fg); text-decoration: none; background: var(--bg); }
a.card:hover, a.card:focus-visible { border-color: var(--accent); box-shadow: 0 4px 16px rgba(0, 0, 0, .12); }
.card-cover { display: block; width: 100%; aspect-ratio: 16 / 9; object-fit: cover; border-bottom: 1px solid var(--line); }
.card-body { padding: .75rem 1rem; }
.card-text + .card-text { margin-top: .25rem; color: var(--muted); font-size: .93rem; }
.dark-only { display: none; }
@media (prefers-color-scheme: dark) { .light-only { display: none; } .dark-only { display: block; } }
svg.icon { display: inline-block; width: 1em; height: 1em; vertical-align: -.125em; }
.button { display: inline-block; margin: .25rem .5rem .25rem 0; padding: .5rem 1.1rem; border: 1px solid var(--accent); border-radius: 6px;
  font-weight: 600; text-decoration: none; line-height: 1.3; }
.button.primary { background: var(--accent); color: var(--accent-fg); }
.button.secondary { background: transparent; color: var(--accent); }
mark { background: color-mix(in srgb, var(--warning) 30%, transparent); color: inherit; padding: 0 .15rem; border-radius: 3px; }
kbd { font: .85em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: .05rem .35rem; background: var(--soft); }
.pagination { display: flex; justify-content: space-between; gap: 1rem; margin-top: 3rem; padding-top: 1.5rem; border-top: 1px solid var(--line); }
.pagination a { display: block; border: 1px solid var(--line); border-radius: 6px; padding: .6rem 1rem; text-decoration: none; max-width: 48%; }
.pagination .next { margin-left: auto; text-align: right; }
.pagination small { display: block; color: var(--muted); }
.results { list-style: none; padding: 0; }
.results li { border-bottom: 1px solid var(--line); padding: .75rem 0; }
.message { max-width: 40rem; margin: 4rem auto; padding: 0 1.5rem; }
.diff { white-space: pre-wrap; }
.diff ins { display: block; text-decoration: none; background: color-mix(in srgb, var(--success) 18%, transparent); }
.diff del { display: block; text-decoration: none; background: color-mix(in srgb, var(--danger) 18%, transparent); }
.diff span { display: block; color: var(--muted); }
.change-request { border: 1px solid var(--line); border-radius: 8px; padding: .5rem 1rem; margin-bottom: 2rem; }
.sign-in input { padding: .5rem .6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--soft); color: var(--fg); max-width: 100%; }
.sign-in button { padding: .5rem 1rem; border: 0; border-radius: 6px; background: var(--accent); color: var(--accent-fg); cursor: pointer; }
@media (max-width: 64rem) { .layout { grid-template-columns: 14rem minmax(0, 1fr); } .outline { display: none; } }
@media (max-width: 44rem) { .columns { flex-direction: column; } .column { flex-basis: auto; } }
@media (max-width: 44rem) { .layout { display: block; } .sidebar { position: static; max-height: none; border-bottom: 1px solid var(--line); } }
`

export const READER_CSS_HASH = createHash("sha256").update(READER_CSS).digest("hex").slice(0, 16)
