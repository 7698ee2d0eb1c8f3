import { type UserAgentInfo, UserAgents, type VisitorBot, type VisitorBrowser, type VisitorOS } from "@octavo/domain"
import Bowser from "bowser"
import { isbot } from "isbot"
import { Layer } from "effect"

// What a user agent says of a visitor, read by two well-kept libraries: bowser (MIT) for the
// browser, system and device, isbot (Unlicense) for crawlers; named in GitBook's enumerations.

const browsers: ReadonlyArray<readonly [string, VisitorBrowser]> = [
  ["Microsoft Edge", "edge"],
  ["Chrome", "chrome"],
  ["Chromium", "chrome"],
  ["Firefox", "firefox"],
  ["Safari", "safari"],
  ["Internet Explorer", "ie"],
  ["Opera", "opera"]
]

const systems: ReadonlyArray<readonly [string, VisitorOS]> = [
  ["Windows", "windows"],
  ["macOS", "macos"],
  ["Linux", "linux"],
  ["Android", "android"],
  ["iOS", "ios"]
]

/** The named bots and agents, by a word of their user agent (lower case), most specific first. */
const bots: ReadonlyArray<readonly [string, Exclude<VisitorBot, null>]> = [
  ["googlebot", "googlebot"],
  ["bingbot", "bingbot"],
  ["duckassistbot", "duckassist"],
  ["duckduckbot", "duckduckbot"],
  ["facebookexternalhit", "facebookbot"],
  ["facebookbot", "facebookbot"],
  ["meta-externalfetcher", "meta-fetcher"],
  ["meta-webindexer", "meta-webindexer"],
  ["meta-externalads", "meta-ads"],
  ["meta-externalagent", "meta"],
  ["applebot", "applebot"],
  ["chatgpt-user", "chatgpt"],
  ["oai-searchbot", "openai"],
  ["gptbot", "gptbot"],
  ["claudebot", "claudebot"],
  ["claude-code", "claude-code"],
  ["claude-user", "claude"],
  ["anthropic", "anthropic"],
  ["google-extended", "gemini"],
  ["gemini", "gemini"],
  ["perplexity", "perplexity"],
  ["cohere", "cohere"],
  ["mistralai", "mistral"],
  ["deepseek", "deepseek"],
  ["bytespider", "bytespider"],
  ["ccbot", "ccbot"],
  ["amzn-searchbot", "amzn-searchbot"],
  ["amzn-user", "amzn-user"],
  ["amazonbot", "amazonbot"],
  ["youbot", "youbot"],
  ["github-copilot", "github-copilot"],
  ["grok", "grok"],
  ["cursor", "cursor"],
  ["vscode", "vscode"],
  ["opencode", "opencode"],
  ["codex", "codex"]
]

const lookup = <A>(table: ReadonlyArray<readonly [string, A]>, name: string | undefined, fallback: A): A =>
  table.find(([key]) => key === name)?.[1] ?? fallback

export const parseUserAgent = (userAgent: string): UserAgentInfo => {
  const lower = userAgent.toLowerCase()
  const named = bots.find(([word]) => lower.includes(word))?.[1]
  const bot: VisitorBot = named ?? (isbot(userAgent) ? "unknown" : null)
  const parsed = Bowser.getParser(userAgent === "" ? " " : userAgent)
  const platform = parsed.getPlatformType()
  return {
    browser: lookup(browsers, parsed.getBrowserName(), "unknown"),
    os: lookup(systems, parsed.getOSName(), "unknown"),
    device: platform === "desktop" || platform === "mobile" || platform === "tablet" ? platform : "unknown",
    bot
  }
}

/** Most of a site's traffic comes from a few hundred browsers: this many readings are kept, the oldest dropped first. */
const REMEMBERED = 2_000

/** `parseUserAgent` over a bounded memory of recent user agents (parsing is some tens of microseconds a string). */
export const rememberingParser = (remembered = REMEMBERED) => {
  const readings = new Map<string, UserAgentInfo>()
  return (userAgent: string): UserAgentInfo => {
    const known = readings.get(userAgent)
    if (known !== undefined) return known
    const info = parseUserAgent(userAgent)
    if (readings.size >= remembered) readings.delete(readings.keys().next().value as string)
    readings.set(userAgent, info)
    return info
  }
}

export const UserAgentsLive = Layer.sync(UserAgents, () => UserAgents.of({ parse: rememberingParser() }))
