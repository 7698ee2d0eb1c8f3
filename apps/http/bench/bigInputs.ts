/** Large inputs of ordinary shape, for the parse benchmark and tests (issue 13). */

/** An ordinary page of about `length` characters (some of them multibyte): sections of prose with links, lists, code and tables. */
export const bigPage = (length: number, title = "A long page"): string => {
  const parts: Array<string> = [`# ${title}\n`]
  let size = 0
  for (let i = 0; size < length; i++) {
    const section = `## Section ${i}\n\nThis paragraph explains **topic ${i}** with [a link](https://example.com/${i}) and ` +
      `\`inline code\`, then more words to make it read like prose: Übersicht — café, naïve façade, Ærø; 日本語の説明文です。\n\n` +
      `この段落は日本語で書かれた説明です。長いページでも普通の文章として読めるように、いくつかの文を続けます。\n\n` +
      `二つ目の段落も同じように、見出しとリンクと表のあいだに置かれた、ごく普通の説明の文章です。\n\n` +
      `- first point about ${i}\n- second point, *emphasised*\n  - a nested one\n\n` +
      "```js\nconst value = " + i + "\nconsole.log(value)\n```\n\n" +
      `| Name | Value |\n| ---- | ----- |\n| item ${i} | ${i * 2} |\n\n`
    parts.push(section)
    size += section.length
  }
  return parts.join("\n")
}

/** An OpenAPI document in YAML of about `bytes`: many paths with a response each. */
export const bigSpec = (bytes: number): string => {
  const lines = ["openapi: 3.0.3", "info:", "  title: Big", "  version: 1.0.0", "paths:"]
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const path = `  /things/${i}:\n    get:\n      summary: Thing ${i}\n      operationId: getThing${i}\n` +
      `      responses:\n        "200":\n          description: The thing ${i}, with words to fill the line\n`
    lines.push(path)
    size += path.length
  }
  return lines.join("\n")
}
