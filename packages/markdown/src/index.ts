// GitBook markdown on the unified ecosystem: pure functions over one parse of a page.
export {}
