import type { ServerResponse } from 'node:http';
import { Injectable, Logger } from '@nestjs/common';
import { UpstreamPools } from '../relay/upstream-pools';
import { headerText } from '../relay/upstream-io';
import { CORS_HEADERS, REQUEST_ID_HEADER, relayError, sendError } from '../relay/relay-http';
import type { Lang } from '../shared/i18n/messages';
import { TaskLogReader } from './read/task-log.reader';

/** Largest image passed on (a Midjourney grid is a few MB). */
const MJ_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
const IMAGE_TIMEOUT_MS = 30_000;

/**
 * GET /mj/image/:id (no key, as new-api: image addresses are handed to browsers): streams the image
 * the task recorded — that address and no other, no redirects followed — with an image content type
 * only and at most MJ_IMAGE_MAX_BYTES.
 */
@Injectable()
export class MjImageProxy {
  private readonly logger = new Logger(MjImageProxy.name);

  constructor(
    private readonly reader: TaskLogReader,
    private readonly pools: UpstreamPools,
  ) {}

  async serve(mjId: string, res: ServerResponse, requestId: string, lang: Lang): Promise<void> {
    const fail = (status: number, code: string) =>
      sendError(res, relayError(lang, status, code, {}, 'tollgate_error', null), requestId);
    const raw = await this.reader.midjourneyImageUrl(mjId);
    let url: URL;
    try {
      url = new URL(raw ?? '');
    } catch {
      return fail(404, 'relay.image_not_found');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return fail(404, 'relay.image_not_found');
    try {
      const answer = await this.pools.pool(url.origin).request({
        method: 'GET',
        path: url.pathname + url.search,
        headersTimeout: IMAGE_TIMEOUT_MS,
        bodyTimeout: IMAGE_TIMEOUT_MS,
      });
      const type = headerText(answer.headers['content-type']);
      const length = Number(headerText(answer.headers['content-length']) || NaN);
      if (answer.statusCode !== 200 || !/^image\//i.test(type) || length > MJ_IMAGE_MAX_BYTES) {
        // Not read: dropped (a destroy would surface as an unhandled abort error).
        answer.body.dump().catch(() => undefined);
        return fail(
          502,
          answer.statusCode !== 200 ? 'relay.image_unavailable' : 'relay.not_an_image',
        );
      }
      res.writeHead(200, {
        ...CORS_HEADERS,
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
    } catch (error) {
      this.logger.warn(`mj image ${mjId}: ${String(error)}`);
      fail(502, 'relay.image_unavailable');
    }
  }
}
