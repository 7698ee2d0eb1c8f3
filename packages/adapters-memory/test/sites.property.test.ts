import { MemoryStorage } from "@octavo/adapters-memory"
import { sitesModelProperty } from "@octavo/domain/contract"

sitesModelProperty("memory", () => MemoryStorage, 150)
