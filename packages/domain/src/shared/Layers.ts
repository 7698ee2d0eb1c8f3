import { Layer } from "effect"

// Compositions over a list of layers (one per context, say), keeping what each provides, fails with and needs.

type AnyLayer = Layer.Layer<never, unknown, unknown>
/** What any of the layers provides. */
export type OutOf<L> = L extends Layer.Layer<infer A, infer _E, infer _R> ? A : never
/** How any of the layers may fail. */
export type ErrorOf<L> = L extends Layer.Layer<infer _A, infer E, infer _R> ? E : never
/** What any of the layers needs. */
export type NeedOf<L> = L extends Layer.Layer<infer _A, infer _E, infer R> ? R : never

/** The layers side by side: everything each provides, each built over what is given to all. */
export const mergeAllOf = <const L extends AnyLayer>(
  layers: ReadonlyArray<L>
): Layer.Layer<OutOf<L>, ErrorOf<L>, NeedOf<L>> =>
  layers.reduce<AnyLayer>((all, layer) => Layer.merge(all, layer), Layer.empty as unknown as AnyLayer) as Layer.Layer<
    OutOf<L>,
    ErrorOf<L>,
    NeedOf<L>
  >

/**
 * The layers stacked in order, each built over everything those before it provide (as contexts are: each over the
 * contexts before it), all of it provided. Needs what none of them provides.
 */
export const stackInOrder = <const L extends AnyLayer>(
  layers: ReadonlyArray<L>
): Layer.Layer<OutOf<L>, ErrorOf<L>, Exclude<NeedOf<L>, OutOf<L>>> =>
  layers.reduce<AnyLayer>((below, layer) => Layer.provideMerge(layer, below), Layer.empty as unknown as AnyLayer) as Layer.Layer<
    OutOf<L>,
    ErrorOf<L>,
    Exclude<NeedOf<L>, OutOf<L>>
  >
