import { MemoryStorage } from "@octavo/adapters-memory"
import { spacesModelProperty } from "@octavo/domain/contract"

spacesModelProperty("memory", () => MemoryStorage, 150)
