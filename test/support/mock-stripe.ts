import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call the gateway made to the mock Stripe API. */
export interface StripeCall {
  readonly method: string;
  readonly path: string;
  readonly authorization: string;
  readonly idempotencyKey: string;
  /** The form body as the library encodes it (`line_items[0][price]` → value). */
  readonly form: Record<string, string>;
}

/** A Checkout session the mock created. */
export interface MockSession {
  readonly id: string;
  readonly url: string;
  readonly amount: number;
  readonly clientReferenceId: string;
  readonly metadata: Record<string, string>;
}

export interface MockStripe {
  /** For STRIPE_API_BASE. */
  readonly url: string;
  readonly calls: StripeCall[];
  readonly sessions: MockSession[];
  /** The next session creation answers this Stripe error instead (once). */
  failNext(status: number, error: { type: string; code?: string; message: string }): void;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * The few Stripe API answers the gateway needs, on 127.0.0.1: `POST /v1/checkout/sessions` creates
 * a session like Stripe (object 'checkout.session', id cs_test_…, a checkout.stripe.com url) and
 * records the request. Anything else answers Stripe's 404 error shape.
 */
export async function startMockStripe(): Promise<MockStripe> {
  const calls: StripeCall[] = [];
  const sessions: MockSession[] = [];
  let failure: { status: number; error: object } | null = null;
  let counter = 0;

  const server: Server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const form = Object.fromEntries(new URLSearchParams(text));
      const path = (request.url ?? '/').split('?')[0]!;
      calls.push({
        method: request.method ?? '',
        path,
        authorization: String(request.headers.authorization ?? ''),
        idempotencyKey: String(request.headers['idempotency-key'] ?? ''),
        form,
      });
      const answer = (status: number, body: object) => {
        response.writeHead(status, {
          'content-type': 'application/json',
          'request-id': `req_mock_${calls.length}`,
        });
        response.end(JSON.stringify(body));
      };
      if (request.method === 'POST' && path === '/v1/checkout/sessions') {
        if (failure) {
          const { status, error } = failure;
          failure = null;
          answer(status, { error });
          return;
        }
        counter += 1;
        const id = `cs_test_mock${String(counter).padStart(6, '0')}`;
        const metadata: Record<string, string> = {};
        for (const [key, value] of Object.entries(form)) {
          const match = /^metadata\[(.+)\]$/.exec(key);
          if (match) metadata[match[1]!] = value;
        }
        const session: MockSession = {
          id,
          url: `https://checkout.stripe.com/c/pay/${id}`,
          amount: Number(form['line_items[0][quantity]'] ?? 0),
          clientReferenceId: form['client_reference_id'] ?? '',
          metadata,
        };
        sessions.push(session);
        answer(200, {
          id,
          object: 'checkout.session',
          mode: form['mode'] ?? 'payment',
          status: 'open',
          payment_status: 'unpaid',
          client_reference_id: session.clientReferenceId || null,
          metadata,
          success_url: form['success_url'] ?? null,
          cancel_url: form['cancel_url'] ?? null,
          customer_email: form['customer_email'] ?? null,
          amount_total: null,
          currency: 'usd',
          livemode: false,
          url: session.url,
        });
        return;
      }
      answer(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    sessions,
    failNext(status, error) {
      failure = { status, error };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A `checkout.session.<kind>` event as Stripe sends it, for a session the mock created. */
export function checkoutEvent(
  session: Pick<MockSession, 'id' | 'clientReferenceId' | 'metadata'>,
  options: {
    type?: string;
    status?: string;
    paymentStatus?: string;
    amountTotal?: number;
    eventId?: string;
  } = {},
): string {
  return JSON.stringify({
    id: options.eventId ?? `evt_mock_${session.id}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: options.type ?? 'checkout.session.completed',
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        mode: 'payment',
        status: options.status ?? 'complete',
        payment_status: options.paymentStatus ?? 'paid',
        client_reference_id: session.clientReferenceId || null,
        metadata: session.metadata,
        amount_total: options.amountTotal ?? 0,
        currency: 'usd',
        customer: 'cus_mock',
        payment_intent: `pi_mock_${session.id}`,
        livemode: false,
      },
    },
  });
}
