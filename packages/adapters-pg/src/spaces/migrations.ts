import type { Migration } from "../shared/Migrations.js"
import { migration as spaces } from "./migrations/0002_spaces.js"
import { migration as defaultLevelsAndIcons } from "./migrations/0007_default_levels_and_icons.js"
import { migration as language } from "./migrations/0026_space_language.js"

export const spacesMigrations: ReadonlyArray<Migration> = [spaces, defaultLevelsAndIcons, language]
