import { MemoryStorage } from "@octavo/adapters-memory"
import { contractSuite } from "@octavo/domain/contract"

contractSuite("memory", () => MemoryStorage)
