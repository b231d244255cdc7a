import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { OptionsCache } from '../options/options.cache';

/** The monitoring options channel tasks follow (spec 000 §3 Monitoring), read live. */
@Injectable()
export class ChannelSettings implements OnModuleInit {
  private options: OptionsCache | undefined;

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    // OptionsCache is provided by the app module; this feature module reads it without owning it.
    this.options = this.moduleRef.get(OptionsCache, { strict: false });
  }

  /** AutomaticDisableChannelEnabled (default off, as in the anchors). */
  get autoDisable(): boolean {
    return this.options?.bool('AutomaticDisableChannelEnabled') ?? false;
  }

  get autoEnable(): boolean {
    return this.options?.bool('AutomaticEnableChannelEnabled') ?? false;
  }

  /** ChannelDisableThreshold in ms: a test slower than this counts as failed; 0 = no limit. */
  get disableThresholdMs(): number {
    const seconds = this.options?.number('ChannelDisableThreshold') ?? 0;
    return seconds > 0 ? seconds * 1000 : 0;
  }
}
