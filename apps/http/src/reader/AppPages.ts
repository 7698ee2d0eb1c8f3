import type { ChangeRequestView, CollectionView, OrganizationView, PageNode, ReaderLink, SpaceView, User } from "@octavo/domain"
import { renderHtml } from "@octavo/markdown"
import { diffLines } from "diff"
import { type Html, html, trusted } from "./Html.js"
import { document } from "./Pages.js"

/**
 * The views behind the API's `urls.app` for signed-in members (issue 20): an organization, a collection,
 * a space with its pages, a change request with its pages and its diff. Pure: domain objects in, HTML out.
 */

const bar = (user: User | undefined) =>
  html`<a class="skip" href="#content">Skip to content</a>
<header class="site-header">
<a class="site-title" href="/o">Octavo</a>
${
    user === undefined ? "" : html`<form class="search" method="post" action="/sign-out">
<span>${user.displayName}</span>
<button type="submit">Sign out</button>
</form>`
  }
</header>`

/** The sign-in page: a member pastes an API token once; the session keeps its id, never the token. */
export const signInDocument = (next: string, problem?: string) =>
  document({
    title: "Sign in | Octavo",
    body: html`${bar(undefined)}
<main id="content" class="message" tabindex="-1">
<h1>Sign in</h1>
<p>Paste one of your API tokens. It is checked once; this browser then keeps only a session, which ends when you sign out or the token is revoked.</p>
${problem === undefined ? "" : html`<p role="alert"><strong>${problem}</strong></p>`}
<form method="post" action="/sign-in" class="sign-in">
<input type="hidden" name="next" value="${next}">
<p><label for="token">API token</label><br>
<input id="token" name="token" type="password" autocomplete="off" required size="48"></p>
<p><button type="submit">Sign in</button></p>
</form>
</main>`
  })

export const appMessage = (user: User | undefined, title: string, text: string) =>
  document({
    title: `${title} | Octavo`,
    body: html`${bar(user)}<main id="content" class="message" tabindex="-1"><h1>${title}</h1><p>${text}</p></main>`
  })

export const organizationsDocument = (user: User, organizations: ReadonlyArray<OrganizationView>) =>
  document({
    title: "Organizations | Octavo",
    body: html`${bar(user)}
<main id="content" class="message" tabindex="-1">
<h1>Your organizations</h1>
${
      organizations.length === 0 ?
        html`<p>You are not a member of any organization yet.</p>` :
        html`<ul>${organizations.map((o) => html`<li><a href="/o/${o.organization.id}">${o.organization.title}</a></li>`)}</ul>`
    }
</main>`
  })

/** An organization (or one collection of it): its collections and spaces as a tree, in their order. */
export const organizationDocument = (
  user: User,
  organization: OrganizationView,
  collections: ReadonlyArray<CollectionView>,
  spaces: ReadonlyArray<SpaceView>,
  root: CollectionView | undefined
) => {
  const under = (parent: string | null): Html => {
    const folders = collections.filter((c) => (c.collection.parentId ?? null) === parent)
    const leaves = spaces.filter((s) => (s.space.parentId ?? null) === parent)
    if (folders.length === 0 && leaves.length === 0) return html``
    return html`<ul>${
      [
        ...folders.map((c) => ({
          position: c.collection.position,
          item: html`<li><a href="/o/${organization.organization.id}/c/${c.collection.id}">📁 ${c.collection.title}</a>${
            under(c.collection.id)
          }</li>`
        })),
        ...leaves.map((s) => ({
          position: s.space.position,
          item: html`<li><a href="/s/${s.space.id}">${s.space.emoji ? `${s.space.emoji} ` : ""}${s.space.title}</a></li>`
        }))
      ]
        .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))
        .map((x) => x.item)
    }</ul>`
  }
  const title = root === undefined ? organization.organization.title : root.collection.title
  return document({
    title: `${title} | Octavo`,
    body: html`${bar(user)}
<main id="content" class="message" tabindex="-1">
${root === undefined ? "" : html`<p><a href="/o/${organization.organization.id}">${organization.organization.title}</a></p>`}
<h1>${title}</h1>
${root?.collection.description === undefined ? "" : html`<p class="description">${root.collection.description}</p>`}
<nav aria-label="Collections and spaces">${under(root?.collection.id ?? null)}</nav>
</main>`
  })
}

/** What a space view needs of one page: where it is, and how its links read. */
export interface AppPage {
  readonly base: string
  readonly title: string
  readonly heading: Html
  readonly pages: ReadonlyArray<PageNode>
  readonly node: PageNode | undefined
  readonly link: (url: string) => ReaderLink
  readonly fileHref: (fileId: string) => string
  readonly extra?: Html | undefined
}

/** Where a link written in the view's page (or a link page's target) goes, as an href. */
const linkHref = (view: AppPage, url: string): string | undefined => {
  const link = view.link(url)
  return link.kind === "external"
    ? link.url
    : link.kind === "page"
    ? `${view.base}/${link.path}${link.anchor === undefined ? "" : `#${encodeURIComponent(link.anchor)}`}`
    : link.kind === "file"
    ? view.fileHref(link.file.id)
    : undefined
}

const pageTree = (view: AppPage, nodes: ReadonlyArray<PageNode>, current: string | undefined): Html =>
  html`<ul>${
    nodes.map((node) => {
      const children = node.pages.length === 0 ? "" : pageTree(view, node.pages, current)
      if (node.page.kind === "group") return html`<li><p class="group">${node.page.title}</p>${children}</li>`
      if (node.page.kind === "link") return html`<li><a href="${linkHref(view, node.page.href ?? "") ?? "#"}">${node.page.title}</a></li>`
      return html`<li><a href="${view.base}/${node.path}"${node.page.id === current ? html` aria-current="page"` : ""}>${
        node.page.navigationLabel ?? node.page.title
      }${node.page.hidden ? " (hidden)" : ""}</a>${children}</li>`
    })
  }</ul>`

/** A space's (or a change request's, or a revision's) pages with one of them shown. */
export const spaceDocument = (user: User, view: AppPage) => {
  const node = view.node
  const rendered = node === undefined ? undefined : renderHtml(node.page.markdown, {
    link: (url) => linkHref(view, url),
    asset: (url) => {
      const link = view.link(url)
      return link.kind === "file" ? view.fileHref(link.file.id) : link.kind === "external" ? link.url : undefined
    },
    headingOffset: 1
  })
  return document({
    title: `${node?.page.title ?? view.title} | Octavo`,
    body: html`${bar(user)}
<div class="layout">
<div class="sidebar">
${view.heading}
<nav class="pages" aria-label="Pages">${pageTree(view, view.pages, node?.page.id)}</nav>
</div>
<main id="content" tabindex="-1">
${view.extra ?? ""}
${
      node === undefined || rendered === undefined ? html`<h1>${view.title}</h1><p>This space has no pages yet.</p>` : html`<article>
<h1>${node.page.title}</h1>
${node.page.description === undefined ? "" : html`<p class="description">${node.page.description}</p>`}
${trusted(rendered.html)}
</article>`
    }
</main>
<aside class="outline" aria-label="On this page"></aside>
</div>`
  })
}

/** One page's change in a change request: added, removed, or its title or markdown changed, with a line diff. */
export interface PageChange {
  readonly kind: "added" | "removed" | "changed"
  readonly title: string
  readonly path: string
  readonly before: string
  readonly after: string
}

const lineDiff = (before: string, after: string) =>
  html`<pre class="diff">${
    diffLines(before, after).map((part) => {
      const sign = part.added ? "+" : part.removed ? "-" : " "
      const lines = part.value.replace(/\n$/, "").split("\n").map((line) => `${sign} ${line}\n`).join("")
      return part.added
        ? html`<ins>${lines}</ins>`
        : part.removed
        ? html`<del>${lines}</del>`
        : html`<span>${lines}</span>`
    })
  }</pre>`

/** The change request's header and its changes against its base. */
export const changeRequestSummary = (view: ChangeRequestView, changes: ReadonlyArray<PageChange>, base: string) =>
  html`<section class="change-request" aria-label="Change request">
<p><strong>#${view.changeRequest.number} ${
    view.changeRequest.subject ?? "Untitled change request"
  }</strong> · ${view.changeRequest.status}${view.createdBy === undefined ? "" : html` · by ${view.createdBy.displayName}`}${
    view.outdated ? " · outdated" : ""
  }</p>
<h2>Changes</h2>
${
    changes.length === 0 ?
      html`<p>No page changed.</p>` :
      changes.map((change) =>
        html`<h3>${change.kind}: <a href="${base}/${change.path}">${change.title}</a></h3>${lineDiff(change.before, change.after)}`
      )
  }
</section>`
