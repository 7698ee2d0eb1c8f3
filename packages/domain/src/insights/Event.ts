import { Schema } from "effect"
import { SiteId } from "../shared/Ids.js"

// Site insights (conventions-2.md §2): events as they are stored, their dimensions flattened into
// fields that both adapters keep alike and that aggregate queries group, filter and count by.

export const insightEventTypes = [
  "page_view",
  "page_markdown_request",
  "search_open",
  "search_type_query",
  "search_open_result",
  "page_post_feedback",
  "page_post_feedback_comment",
  "agent_feedback",
  "ask_question",
  "ask_view",
  "ask_rate_response",
  "link_click",
  "api_client_open",
  "api_client_request",
  "ad_click",
  "ad_display",
  "trademark_click",
  "llms_request",
  "mcp_request",
  "rss_request"
] as const
export const InsightEventType = Schema.Literal(...insightEventTypes)
export type InsightEventType = typeof InsightEventType.Type

/** GitBook's visitor enumerations, what a user agent is parsed into. */
export const VisitorBrowser = Schema.Literal("chrome", "firefox", "safari", "edge", "ie", "opera", "unknown")
export type VisitorBrowser = typeof VisitorBrowser.Type
export const VisitorDevice = Schema.Literal("desktop", "tablet", "mobile", "unknown")
export type VisitorDevice = typeof VisitorDevice.Type
export const VisitorOS = Schema.Literal("windows", "macos", "linux", "android", "ios", "unknown")
export type VisitorOS = typeof VisitorOS.Type
export const visitorBots = [
  "unknown",
  "googlebot",
  "bingbot",
  "duckduckbot",
  "facebookbot",
  "applebot",
  "chatgpt",
  "openai",
  "claude",
  "anthropic",
  "gemini",
  "perplexity",
  "cohere",
  "mistral",
  "deepseek",
  "meta",
  "bytespider",
  "ccbot",
  "amazonbot",
  "youbot",
  "cursor",
  "vscode",
  "claude-code",
  "codex",
  "opencode",
  "gptbot",
  "claudebot",
  "meta-fetcher",
  "grok",
  "github-copilot",
  "meta-webindexer",
  "meta-ads",
  "duckassist",
  "amzn-searchbot",
  "amzn-user"
] as const
/** The bot a user agent names; null for a person's browser. */
export const VisitorBot = Schema.NullOr(Schema.Literal(...visitorBots))
export type VisitorBot = typeof VisitorBot.Type

/** What a user agent string says of the visitor. */
export interface UserAgentInfo {
  readonly browser: VisitorBrowser
  readonly device: VisitorDevice
  readonly os: VisitorOS
  readonly bot: VisitorBot
}

export const DisplayContext = Schema.Literal("site", "server", "embed", "mcp")
export type DisplayContext = typeof DisplayContext.Type
export const PageFeedbackRating = Schema.Literal("bad", "ok", "good")

const text = Schema.NullOr(Schema.String)

/**
 * One tracked event as stored. Every dimension an aggregate query may name is a field here (null
 * when the event has none); the client's IP address is not among them, nor its cookies.
 */
export const StoredEvent = Schema.Struct({
  id: Schema.String,
  siteId: SiteId,
  type: InsightEventType,
  timestamp: Schema.DateFromSelf,
  /**
   * Set when the client gave the timestamp: (session, type, timestamp, url and the type's own
   * fields) hashed. Storing an event whose key is stored already stores nothing.
   */
  dedupKey: text,
  visitorId: Schema.String,
  sessionId: Schema.String,
  visitorBrowser: VisitorBrowser,
  visitorDevice: VisitorDevice,
  visitorOS: VisitorOS,
  visitorBot: VisitorBot,
  visitorLanguage: text,
  /** Null: Octavo has no GeoIP database. */
  visitorGeoCountry: text,
  /** Whether the visitor came with verified claims (a visitor token). */
  visitorAuthenticated: Schema.Boolean,
  /** The visitor's claims, a JSON object, or null. */
  visitorClaims: Schema.NullOr(Schema.Unknown),
  url: Schema.String,
  urlPath: Schema.String,
  referrer: text,
  referrerDomain: text,
  utmSource: text,
  utmMedium: text,
  utmCampaign: text,
  utmTerm: text,
  utmContent: text,
  displayContext: DisplayContext,
  siteSection: text,
  siteSpace: text,
  siteShareKey: text,
  space: text,
  revision: text,
  page: text,
  // The fields of some types of event.
  linkTargetValue: text,
  linkTargetKind: text,
  linkTargetDomain: text,
  linkPosition: text,
  apiOperationPath: text,
  apiOperationMethod: text,
  llmsVariant: text,
  markdownSource: text,
  searchQuery: text,
  searchResultRecordId: text,
  pageFeedbackRating: Schema.NullOr(PageFeedbackRating),
  pageFeedbackComment: text,
  askResponseRating: Schema.NullOr(Schema.Literal(1, -1)),
  adDomain: text,
  adPlacement: text,
  trademarkPlacement: text
})
export type StoredEvent = typeof StoredEvent.Type
