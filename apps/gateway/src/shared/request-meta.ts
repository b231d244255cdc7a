import type { Actor } from '@tollgate/domain';

/** Who asks and from where: becomes the metadata of every event a request appends. */
export interface RequestMeta {
  readonly actor: Actor;
  readonly ip?: string;
  readonly correlationId: string;
  readonly lang: 'zh-CN' | 'en';
}
