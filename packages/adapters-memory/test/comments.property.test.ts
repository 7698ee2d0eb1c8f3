import { MemoryStorage } from "@octavo/adapters-memory"
import { commentsModelProperty } from "@octavo/domain/contract"

commentsModelProperty("memory", () => MemoryStorage, 100)
