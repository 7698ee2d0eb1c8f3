import type { BlockContent, DefinitionContent, Parent } from "mdast"
import type { Node } from "unist"

/** What GitBook's blocks may hold: the same flow content as a blockquote. */
export type FlowContent = BlockContent | DefinitionContent

export type HintStyle = "info" | "warning" | "danger" | "success"
export const hintStyles: ReadonlyArray<HintStyle> = ["info", "warning", "danger", "success"]

/** `{% hint style="…" %}…{% endhint %}` */
export interface Hint extends Parent {
  readonly type: "hint"
  style: HintStyle
  children: Array<FlowContent>
}

/** `{% tabs %}…{% endtabs %}`: only tabs inside. */
export interface Tabs extends Parent {
  readonly type: "tabs"
  children: Array<Tab>
}

/** `{% tab title="…" %}…{% endtab %}` */
export interface Tab extends Parent {
  readonly type: "tab"
  title: string
  children: Array<FlowContent>
}

/** `{% embed url="…" %}`, or with a caption: `{% embed url="…" %}caption{% endembed %}`. */
export interface Embed extends Parent {
  readonly type: "embed"
  url: string
  children: Array<FlowContent>
}

/** `{% content-ref url="…" %}[title](url){% endcontent-ref %}`: a card linking to a page. */
export interface ContentRef extends Parent {
  readonly type: "contentRef"
  url: string
  children: Array<FlowContent>
}

/** `{% file src="…" %}`, with an optional caption closed by `{% endfile %}`. */
export interface FileBlock extends Parent {
  readonly type: "file"
  url: string
  children: Array<FlowContent>
}

/** `{% include "…" %}`: reusable content, by path. */
export interface Include extends Node {
  readonly type: "include"
  path: string
}

/** `{% stepper %}…{% endstepper %}`: numbered steps, only steps inside. */
export interface Stepper extends Parent {
  readonly type: "stepper"
  children: Array<Step>
}

/** `{% step %}…{% endstep %}`: one step, whose first heading is its title. */
export interface Step extends Parent {
  readonly type: "step"
  children: Array<FlowContent>
}

/** `{% columns %}…{% endcolumns %}`: columns side by side, only columns inside. */
export interface Columns extends Parent {
  readonly type: "columns"
  children: Array<Column>
}

/** `{% column width="50%" %}…{% endcolumn %}`; the width as written, when given. */
export interface Column extends Parent {
  readonly type: "column"
  width?: string
  children: Array<FlowContent>
}

/** `<details><summary>title</summary>…</details>` */
export interface Expandable extends Parent {
  readonly type: "expandable"
  title: string
  open: boolean
  children: Array<FlowContent>
}

/** `<figure><img src alt><figcaption>caption</figcaption></figure>`: an image with a caption. */
export interface Figure extends Node {
  readonly type: "figure"
  url: string
  alt: string
  caption: string
  /** The image's `width` attribute, as GitBook writes a resized image's width. */
  width?: string
}

declare module "mdast" {
  interface BlockContentMap {
    hint: Hint
    tabs: Tabs
    embed: Embed
    contentRef: ContentRef
    file: FileBlock
    include: Include
    expandable: Expandable
    figure: Figure
    stepper: Stepper
    columns: Columns
  }
  interface RootContentMap {
    hint: Hint
    tabs: Tabs
    tab: Tab
    embed: Embed
    contentRef: ContentRef
    file: FileBlock
    include: Include
    expandable: Expandable
    figure: Figure
    stepper: Stepper
    step: Step
    columns: Columns
    column: Column
  }
  /** `{% code title="…" overflow="wrap" lineNumbers="true" %}` around a fence, or `title="…"` in its meta. */
  interface CodeData {
    title?: string
    overflow?: "wrap" | "scroll"
    lineNumbers?: boolean
  }
}
