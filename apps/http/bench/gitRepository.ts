/** Repositories in the Git Sync format, for the benchmarks and the event-loop watchdog. */

const SECTIONS = 20
const ASSETS = 50

/** A repository in the Git Sync format: `pages` pages in `SECTIONS` sections, each section a README with children. */
export const gitRepository = (pages: number): Map<string, Uint8Array> => {
  const encoder = new TextEncoder()
  const files = new Map<string, Uint8Array>()
  const summary = ["# Table of contents", "", "* [Home](README.md)"]
  files.set("README.md", encoder.encode("# Home\n\nWelcome to the benchmark.\n"))
  const perSection = Math.ceil((pages - 1 - SECTIONS) / SECTIONS)
  let written = 1
  for (let s = 0; s < SECTIONS && written < pages; s++) {
    summary.push(`* [Section ${s}](section-${s}/README.md)`)
    files.set(`section-${s}/README.md`, encoder.encode(`---\ndescription: Section ${s}\n---\n\n# Section ${s}\n\nAbout section ${s}.\n`))
    written++
    for (let p = 0; p < perSection && written < pages; p++, written++) {
      const asset = `image-${(s * perSection + p) % ASSETS}.png`
      summary.push(`  * [Page ${s}.${p}](section-${s}/page-${p}.md)`)
      const body = [
        `# Page ${s}.${p}`,
        "",
        `Paragraph about topic ${s}.${p}, with a link [home](../README.md) and an image ![diagram](../.gitbook/assets/${asset}).`,
        "",
        "```sh",
        `octavo run --section ${s} --page ${p}`,
        "```",
        "",
        "{% hint style=\"info\" %}",
        `Hint number ${p}.`,
        "{% endhint %}",
        "",
        "| Key | Value |",
        "| --- | ----- |",
        `| a   | ${p}     |`,
        ""
      ]
      files.set(`section-${s}/page-${p}.md`, encoder.encode(body.join("\n")))
    }
  }
  for (let a = 0; a < ASSETS; a++) files.set(`.gitbook/assets/image-${a}.png`, new Uint8Array(2048).map((_, i) => (i * (a + 7)) % 251))
  files.set("SUMMARY.md", encoder.encode(`${summary.join("\n")}\n`))
  return files
}
