import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { parseUserAgent, rememberingParser } from "../src/insights/UserAgents.js"

describe("user agents", () => {
  it("reads browsers, systems, devices and bots in GitBook's names", () => {
    const cases: ReadonlyArray<readonly [string, ReturnType<typeof parseUserAgent>]> = [
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
        { browser: "chrome", os: "windows", device: "desktop", bot: null }
      ],
      [
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
        { browser: "safari", os: "macos", device: "desktop", bot: null }
      ],
      [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
        { browser: "safari", os: "ios", device: "mobile", bot: null }
      ],
      [
        "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
        { browser: "firefox", os: "linux", device: "desktop", bot: null }
      ],
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0",
        { browser: "edge", os: "windows", device: "desktop", bot: null }
      ],
      [
        "Mozilla/5.0 (Linux; Android 14; SM-X910) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
        { browser: "chrome", os: "android", device: "tablet", bot: null }
      ],
      [
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        { browser: "unknown", os: "unknown", device: "unknown", bot: "googlebot" }
      ],
      [
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
        { browser: "unknown", os: "unknown", device: "unknown", bot: "gptbot" }
      ],
      ["curl/8.5.0", { browser: "unknown", os: "unknown", device: "unknown", bot: "unknown" }],
      ["", { browser: "unknown", os: "unknown", device: "unknown", bot: null }]
    ]
    for (const [userAgent, expected] of cases) {
      const got = parseUserAgent(userAgent)
      expect([userAgent, got.browser, got.os, got.bot]).toEqual([userAgent, expected.browser, expected.os, expected.bot])
      if (expected.bot === null) expect([userAgent, got.device]).toEqual([userAgent, expected.device])
    }
  })

  it("never throws, whatever the string", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 1024 }), (userAgent) => {
        const got = parseUserAgent(userAgent)
        expect(["chrome", "firefox", "safari", "edge", "ie", "opera", "unknown"]).toContain(got.browser)
      }),
      { numRuns: 500 }
    )
  })
})

describe("remembered readings", () => {
  it("answer as a fresh parse does, and forget the oldest past the bound", () => {
    const parse = rememberingParser(2)
    const agents = [
      "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
      "Googlebot/2.1 (+http://www.google.com/bot.html)",
      "curl/8.5.0"
    ]
    for (const agent of [...agents, ...agents]) expect([agent, parse(agent)]).toEqual([agent, parseUserAgent(agent)])
    const [firefox, googlebot, curl] = agents as [string, string, string]
    const first = parse(firefox)
    // Remembered: the same reading, not parsed again; after two others it is forgotten and read anew.
    expect(parse(firefox)).toBe(first)
    parse(googlebot)
    parse(curl)
    const again = parse(firefox)
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
  })
})
