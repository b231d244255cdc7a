import type { OptionsCache } from '../../options/options.cache';

/**
 * The address a client is shown for a Midjourney task's image: the gateway's `/mj/image/<mj_id>`
 * (under ServerAddress, or relative when it is empty) when MjForwardUrlEnabled, else the upstream's
 * own address. Nothing to show stays empty.
 */
export function shownImageUrl(
  options: Pick<OptionsCache, 'bool' | 'get'>,
  mjId: string,
  upstreamUrl: string,
): string {
  if (!options.bool('MjForwardUrlEnabled') || upstreamUrl === '') return upstreamUrl;
  const server = options.get('ServerAddress').trim().replace(/\/+$/, '');
  return `${server}/mj/image/${mjId}`;
}
