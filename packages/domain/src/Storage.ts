import type { Layer } from "effect"
import type { OutsidePorts } from "./Outside.js"
import type { DomainServices } from "./Services.js"

/**
 * Everything a storage adapter provides: whatever the domain's use cases need but the outside ports, that is each
 * context's repositories (its `Ports.ts`) and the reads that take several contexts' rows at once (`ReadsOneByOne`
 * answers them over the repositories). One Layer of these runs the whole domain; an adapter that misses one does not
 * compile.
 */
export type StoragePorts = Exclude<Layer.Layer.Context<typeof DomainServices>, OutsidePorts>
