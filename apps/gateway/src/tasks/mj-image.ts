import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Dispatcher } from 'undici';
import {
  CORS_HEADERS,
  headerText,
  REQUEST_ID_HEADER,
  relayError,
  sendError,
  TASK_RELAY_PORT,
  type TaskRelayPort,
} from '../relay/task-relay-port';
import type { Lang } from '../shared/i18n/messages';
import { guardedAgent } from '../shared/net/guarded-connect';
import { TaskLogReader } from './read/task-log.reader';

/** Largest image passed on (a Midjourney grid is a few MB). */
const MJ_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
const IMAGE_TIMEOUT_MS = 30_000;
/** Connections kept per image host other than the channels (CDNs). */
const PUBLIC_CONNECTIONS_PER_HOST = 16;
const PUBLIC_KEEP_ALIVE_MS = 30_000;
/**
 * The image is shown on the gateway's own origin: it may run nothing (an SVG's script) and is
 * never sniffed as another type.
 */
const IMAGE_SAFETY_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
};

/**
 * GET /mj/image/:id (no key, as new-api: image addresses are handed to browsers): streams the image
 * the task's upstream gave when polled — that address and no other, no redirect followed — with an
 * image content type only and at most MJ_IMAGE_MAX_BYTES. The address must be http(s) and either on
 * the origin of the task's channel's base_url (a midjourney-proxy on a private network serves its
 * own images) or on a public address, judged on the address connected to. Every failure gives the
 * same answer, so the proxy tells nothing about what lies behind an address.
 */
@Injectable()
export class MjImageProxy implements OnApplicationShutdown {
  private readonly logger = new Logger(MjImageProxy.name);
  private readonly publicOnly = guardedAgent(
    {},
    { connections: PUBLIC_CONNECTIONS_PER_HOST, keepAliveTimeout: PUBLIC_KEEP_ALIVE_MS },
  );

  constructor(
    private readonly reader: TaskLogReader,
    @Inject(TASK_RELAY_PORT) private readonly relay: TaskRelayPort,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.publicOnly.destroy();
  }

  async serve(mjId: string, res: ServerResponse, requestId: string, lang: Lang): Promise<void> {
    const fail = () =>
      sendError(
        res,
        relayError({
          lang,
          status: 404,
          key: 'relay.image_unavailable',
          type: 'tollgate_error',
          code: null,
        }),
        requestId,
      );
    const image = await this.reader.midjourneyImage(mjId);
    const url = image ? httpUrl(image.imageUrl) : undefined;
    if (!image || !url) return fail();
    let answer: Dispatcher.ResponseData;
    try {
      answer = await this.dispatcherFor(url, image.channelId).request({
        origin: url.origin,
        method: 'GET',
        path: url.pathname + url.search,
        headersTimeout: IMAGE_TIMEOUT_MS,
        bodyTimeout: IMAGE_TIMEOUT_MS,
      });
    } catch (error) {
      this.logger.warn(`mj image ${mjId} of channel ${image.channelId}: ${String(error)}`);
      return fail();
    }
    const type = headerText(answer.headers['content-type']);
    const length = Number(headerText(answer.headers['content-length']) || NaN);
    if (answer.statusCode !== 200 || !/^image\//i.test(type) || length > MJ_IMAGE_MAX_BYTES) {
      // Not read: dropped (a destroy would surface as an unhandled abort error).
      answer.body.dump().catch(() => undefined);
      return fail();
    }
    res.writeHead(200, {
      ...CORS_HEADERS,
      ...IMAGE_SAFETY_HEADERS,
      'content-type': type,
      ...(Number.isFinite(length) ? { 'content-length': String(length) } : {}),
      'cache-control': 'public, max-age=86400',
      [REQUEST_ID_HEADER]: requestId,
    });
    let size = 0;
    answer.body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // No length announced and too long: cut rather than relay an unbounded body.
      if (size > MJ_IMAGE_MAX_BYTES) {
        answer.body.destroy();
        res.destroy();
        return;
      }
      if (!res.write(chunk)) {
        answer.body.pause();
        res.once('drain', () => answer.body.resume());
      }
    });
    answer.body.once('end', () => res.end());
    answer.body.once('error', () => res.destroy());
    res.once('close', () => answer.body.destroy());
  }

  /**
   * The channel's own origin through the relay's pool for it (the admin chose that address);
   * any other through the agent that connects to public addresses only.
   */
  private dispatcherFor(url: URL, channelId: number): Dispatcher {
    const baseUrl = this.relay.channel(channelId)?.baseUrl;
    const channelOrigin = baseUrl ? httpUrl(baseUrl)?.origin : undefined;
    return url.origin === channelOrigin ? this.relay.upstreamPool(url.origin) : this.publicOnly;
  }
}

/** The address when it is an absolute http(s) URL. */
function httpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
