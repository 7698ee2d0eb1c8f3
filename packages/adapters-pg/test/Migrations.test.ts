import { createHash } from "node:crypto"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { migrate, migrations } from "../src/PgStorage.js"
import { migrateTo, PgliteClient, PgServerClient, PgServerClientInFreshSchema } from "../src/shared/index.js"
import { serverUrl } from "./helpers.js"

const appliedMigrations = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ readonly id: number; readonly name: string }>`SELECT id, name FROM octavo_migrations ORDER BY id`
)

const expected = migrations.map(({ id, name }) => ({ id, name }))

const tables = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ readonly table_name: string }>`SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() ORDER BY table_name`,
    (rows) => rows.map((row) => row.table_name)
  ))

const allTables = [
  "api_tokens",
  "blobs",
  "change_requests",
  "collections",
  "comment_reactions",
  "comment_replies",
  "comments",
  "custom_field_values",
  "custom_fields",
  "gitsync_revisions",
  "gitsync_site_states",
  "gitsync_states",
  "insight_events",
  "insight_rollup",
  "integration_installations",
  "integration_versions",
  "integrations",
  "invites",
  "members",
  "octavo_migrations",
  "openapi_spec_version_chunks",
  "openapi_spec_versions",
  "openapi_specs",
  "organizations",
  "revision_contents",
  "revision_files",
  "revision_pages",
  "revisions",
  "saml_providers",
  "search_documents",
  "search_spaces",
  "site_redirects",
  "site_section_groups",
  "site_sections",
  "site_share_links",
  "site_spaces",
  "sites",
  "space_comment_counts",
  "spaces",
  "team_memberships",
  "teams",
  "translation_settings",
  "users"
]

/** Starts several servers' migrations at once, then once more when all have finished. */
const migrateConcurrently = Effect.gen(function*() {
  yield* Effect.all([migrate, migrate, migrate], { concurrency: "unbounded" })
  expect(yield* appliedMigrations).toEqual(expected)
  expect(yield* tables).toEqual(allTables)
  yield* migrate
  expect(yield* appliedMigrations).toEqual(expected)
})

describe("migrate", () => {
  // A database records the ids it has applied: one migrated before the migrations moved into their
  // contexts' folders is up to date only if every shipped migration keeps its id, name and SQL.
  it("keeps the migrations that shipped, in their order, byte for byte", () => {
    const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")
    expect(migrations.map(({ id, name, sql }) => [id, name, sha256(sql)])).toEqual([
      [1, "identity and organizations", "6839e36eb4abb18ca9878aac98f38f9d552bab0c3e6742f818e3c01383fbc1bd"],
      [2, "collections, spaces and custom fields", "7c3ca6d5c8551a18c43b3b193add69776db4a02beeb24f40f377192cdcda0198"],
      [3, "revision content and blobs", "b4a85a575b964b4f666e76173e777771e8e62ec22bab4745baff1d8269c6773a"],
      [4, "change requests", "e296dc9adb62587d70ea9be956c34aa4a4ccd4ffc07b36a4a33766137d861c19"],
      [5, "search documents", "07291f78b2f295e772443cfff7dd26c0c8a6d33d01218086b654d7268d99d2d1"],
      [6, "search spaces", "5388f98ee170d99ae1c8f8b7d88b9469f6e0b231eb0712baf3bf523ca67b36dd"],
      [7, "default levels inherit or none, space icons", "9826015fd56d72bef750c044afbbb15c56b6dbf113df27530d33c216ce728bd6"],
      [8, "search documents with descriptions and ancestors", "ad783ee6ddbad03d1422f905a828f9a7f3417a06ad450929c8f1d16674334c1b"],
      [9, "guest link invites", "9d47e730cfa850ac34c4165ca467457d2ea4dc8d436402c37e7cdef5b053c5b2"],
      [10, "comments", "f436999010a4922e47f217e1ff6e6ad6fb13a09b769a6224cf5942a9805e5020"],
      [11, "sites", "31ca9fc4950b6944063e3e0ba8f20bd5c7d6af4cd4e45ed3fd2332b42bead94f"],
      [12, "insights", "c55f2b37d83191bc15dfc62d995a39c58a46b83e2db62d666d0d5d6926d41e78"],
      [13, "sites_schema_order", "545dc35bc44564301f8733352bf04f36c0fc340e6de864c13996c4c6435640b0"],
      [14, "sso", "b2a323e3954fb508fba07f9cf646eddf62ff4ae09658ef0644dd9715b0d77b3c"],
      [15, "translations", "051f7b0b979e617acaea1575e1426d244802a1cb51168da47167e7d4b5b98c7c"],
      [16, "openapi", "e1f1e2f398f48a0644fb30e752169a21e72794498776a337834f3aea52646315"],
      [17, "integrations", "4efea31fd513507b2d8f4bc8a71695fb7154f8994fcc0c95e36862e02b58d005"],
      [18, "gitsync", "ab3a6a535b1c616927342632d62b2f1e47831dcb38d4976985b9016027f2b0f8"],
      [19, "insight_rollup", "1df250f344a44271e6146fb2a061fa7ae6c80ce00998c3bd46079b93334f5143"],
      [20, "revision pages by id and by parent", "b7c1715ddc549ea42033118817a498668a95e0f872613b9b035ad82ec7e1f7b4"],
      [21, "insight events keyed by their dedup key", "d34beaf64723ed334d1276b285dd7e897ee20688f6fe6831ea93d92fd57d6a8e"],
      [22, "openapi_text_chunks", "f1524763c3a13d6c436ee1121299f58bf84f82ea907c0694c0a17b05e15b7453"],
      [23, "site_redirects", "6ae4a02c082b616e8165e8836f731d491b283db9721714b549d2bac9e3174233"],
      [24, "gitsync_sites", "7e26d1abb05c2aba2d3ccaa2e8925d2bed7d48b026e32ac41fe2be76025b68fb"],
      [25, "site_spaces_hidden", "7eadaa081da5134b4ff090c78a3daf3601a9d820766c54d3de2640215217a1f6"],
      [26, "space_language", "34b6c55542fd587c6c6cf6dc39ce6ff02a3727d5af01a103e446b761250d7bd1"],
      [27, "site_localized_titles", "cfc73b3aaec0f4a4e632fdbe19b0e660c0e9569505812d7859f3d11dab5d4df3"]
    ])
  })

  it.live("an OpenAPI version's text stored before chunks (migration 22) reads back byte for byte after it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* migrateTo(migrations.filter((m) => m.id < 22))
      yield* sql`INSERT INTO openapi_specs (id, organization_id, slug, created_at, updated_at, processing_state, submitted_at)
        VALUES ('s1', 'o1', 'api', 0, 0, 'complete', 0)`
      const text = "\uFEFFopenapi: 3.0.3\ninfo: { title: Été ✓, version: 1 }\n"
      yield* sql`INSERT INTO openapi_spec_versions (id, spec_id, number, created_at, hash, format, content)
        VALUES ('v1', 's1', 1, 0, 'h', 'yaml', ${new Uint8Array(Buffer.from(text, "utf8"))})`
      yield* migrate
      const chunks = yield* sql<{ readonly number: number; readonly bytes: Uint8Array }>`
        SELECT number, bytes FROM openapi_spec_version_chunks WHERE version_id = 'v1' ORDER BY number`
      expect(chunks.map((c) => [c.number, Buffer.from(c.bytes).toString("utf8")])).toEqual([[0, text]])
    }).pipe(Effect.provide(PgliteClient({}))))

  it.live("applies each migration once when started concurrently on PGlite", () =>
    migrateConcurrently.pipe(Effect.provide(PgliteClient({}))))

  if (serverUrl !== undefined) {
    const url = serverUrl
    describe("on the Postgres server", () => {
      it.live("applies each migration once when started concurrently over several connections", () =>
        migrateConcurrently.pipe(Effect.provide(PgServerClientInFreshSchema(url))))

      it.live("runs in a schema of its own that is dropped afterwards", () =>
        Effect.gen(function*() {
          const schema = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.zipRight(
              migrate,
              Effect.map(sql<{ readonly schema: string }>`SELECT current_schema() AS schema`, (rows) => rows[0]?.schema)
            )).pipe(Effect.provide(PgServerClientInFreshSchema(url)))
          expect(schema).toMatch(/^test_[0-9a-f]{16}$/)
          const remaining = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
            sql`SELECT 1 FROM pg_namespace WHERE nspname = ${schema ?? ""}`).pipe(
              Effect.provide(Layer.orDie(PgServerClient(url)))
            )
          expect(remaining).toEqual([])
        }))

      it.live("connects with JIT compilation off, unless the url's options set it", () =>
        Effect.gen(function*() {
          const jit = (client: Layer.Layer<SqlClient.SqlClient, unknown>) =>
            Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ readonly jit: string }>`SHOW jit`).pipe(
              Effect.map((rows) => rows[0]?.jit),
              Effect.provide(Layer.orDie(client))
            )
          expect(yield* jit(PgServerClient(url))).toBe("off")
          expect(yield* jit(PgServerClientInFreshSchema(url))).toBe("off")
          const on = new URL(url)
          on.searchParams.set("options", "-c jit=on")
          expect(yield* jit(PgServerClient(on.toString()))).toBe("on")
        }))
    })
  }
})
