import { X509Certificate } from "node:crypto"
import { Certificates } from "@octavo/domain"
import { Either, Layer } from "effect"

// X.509 certificates read by Node's crypto (OpenSSL): a single PEM CERTIFICATE block, or the same DER in bare base64.

const pemBlock = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g
const base64 = /^[A-Za-z0-9+/]+={0,2}$/

/** The DER bytes the text holds, or why it holds none; never quoting it. */
const derOf = (text: string): Either.Either<Buffer, string> => {
  const blocks = [...text.matchAll(pemBlock)]
  if (blocks.length > 1) return Either.left(`must hold a single PEM block, got ${blocks.length}`)
  const [block] = blocks
  if (block !== undefined) {
    if (block[1] !== "CERTIFICATE") return Either.left(`must be a PEM CERTIFICATE block, got a ${block[1]} block`)
    if (text.replace(block[0], "").trim() !== "") return Either.left("must hold nothing but its PEM CERTIFICATE block")
  }
  const body = (block?.[2] ?? text).replace(/\s+/g, "")
  if (body === "" || body.length % 4 !== 0 || !base64.test(body)) {
    return Either.left("must be a PEM CERTIFICATE block or base64 DER")
  }
  return Either.right(Buffer.from(body, "base64"))
}

export const CertificatesLive = Layer.succeed(
  Certificates,
  Certificates.of({
    normalize: (text) =>
      Either.flatMap(derOf(text), (der) => {
        try {
          // The PEM OpenSSL writes of what it read: 64-column base64 of the DER, whatever the input's layout.
          return Either.right(new X509Certificate(der).toString().trim() + "\n")
        } catch {
          return Either.left("must be an X.509 certificate that parses (DER in PEM or base64)")
        }
      })
  })
)
