/**
 * AWS Signature Version 4 for Bedrock Runtime requests, done by @smithy/signature-v4 (the AWS SDK's
 * own signer) with Node's SHA-256. Signing is async in that package, so it runs after the
 * adaptor's synchronous request(): the gateway awaits `ChatAdaptor.authorize` before sending.
 */
import { withFields } from '@tollgate/domain';
import type { Hash } from '@smithy/core/serde';
import type { ProviderRequest } from '../chat-adaptor';
import type { BedrockCredentials } from './bedrock-key';

/** The SigV4 service name of bedrock-runtime.<region>.amazonaws.com. */
export const BEDROCK_SIGNING_SERVICE = 'bedrock';

type HashSecret = ConstructorParameters<typeof Hash>[1];

/**
 * The signer and its hash, loaded on the first Bedrock call (the AWS packages cost ~11 MiB at
 * start-up to gateways that have no Bedrock channel). The signer wants a constructor
 * `new (secret?) => hash`: Node's sha256 (HMAC when keyed).
 */
const signing = async () => {
  const [{ Hash: NodeHash }, { SignatureV4 }] = await Promise.all([
    import('@smithy/core/serde'),
    import('@smithy/signature-v4'),
  ]);
  class Sha256 extends NodeHash {
    constructor(secret?: HashSecret) {
      super('sha256', secret);
    }
  }
  return { SignatureV4, Sha256 };
};
let loaded: ReturnType<typeof signing> | undefined;

function splitQuery(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) query[name] = value;
  return query;
}

/**
 * `req` with the SigV4 headers added: `host`, `x-amz-date`, `x-amz-content-sha256`,
 * `x-amz-security-token` (session credentials only) and `authorization`. Every header of `req`
 * except the unsignable ones (user-agent, …) is signed, so none may change after this.
 */
export async function signBedrockRequest(
  req: ProviderRequest,
  credentials: BedrockCredentials,
  region: string,
  now: Date,
): Promise<ProviderRequest> {
  const url = new URL(req.path, req.origin);
  const { SignatureV4, Sha256 } = await (loaded ??= signing());
  const signer = new SignatureV4({
    credentials,
    region,
    service: BEDROCK_SIGNING_SERVICE,
    sha256: Sha256,
    // Non-S3 services sign the path encoded once more (the model id's `:` as %253A).
    uriEscapePath: true,
  });
  const headers: Record<string, string> = {};
  // Lower-case names so the added `host` cannot sit beside a `Host` (both would be sent).
  for (const [name, value] of Object.entries(req.headers)) headers[name.toLowerCase()] = value;
  headers.host = url.host;
  const signed = await signer.sign(
    {
      method: req.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: url.pathname,
      query: splitQuery(url.search),
      headers,
      body: req.body,
    },
    { signingDate: now },
  );
  return withFields(req, { headers: { ...signed.headers } });
}
