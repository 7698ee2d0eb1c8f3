import type { StoredEvent } from "../../src/index.js"
import { noTypeFields } from "../../src/insights/Track.js"

/** A page view from one Chrome on macOS, every other field empty: tests change what they look at. */
export const storedEvent = (fields: Partial<StoredEvent> & Pick<StoredEvent, "id" | "siteId" | "timestamp">): StoredEvent => ({
  type: "page_view",
  dedupKey: null,
  visitorId: "v1",
  sessionId: "s1",
  visitorBrowser: "chrome",
  visitorDevice: "desktop",
  visitorOS: "macos",
  visitorBot: null,
  visitorLanguage: "en",
  visitorGeoCountry: null,
  visitorAuthenticated: false,
  visitorClaims: null,
  url: "https://docs.example.com/a",
  urlPath: "/a",
  referrer: null,
  referrerDomain: null,
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
  utmTerm: null,
  utmContent: null,
  displayContext: "site",
  siteSection: null,
  siteSpace: null,
  siteShareKey: null,
  space: null,
  revision: null,
  page: null,
  ...noTypeFields,
  ...fields
})
