import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { parseKeywords } from '@tollgate/relay';
import { OptionsCache } from '../options/options.cache';
import type { TestRules } from './channel-test-verdict';

/** The monitoring options channel tasks follow, read live. */
@Injectable()
export class ChannelSettings implements OnModuleInit {
  private options: OptionsCache | undefined;

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    // OptionsCache is provided by the app module; this feature module reads it without owning it.
    this.options = this.moduleRef.get(OptionsCache, { strict: false });
  }

  /**
   * What a test result is judged by, as the options say now (defaults off, as in one-api and
   * new-api).
   */
  get testRules(): TestRules {
    const o = this.options;
    // ChannelDisableThreshold is in seconds; a test slower than it counts as failed; 0 = no limit.
    const seconds = o?.number('ChannelDisableThreshold') ?? 0;
    return {
      autoDisable: o?.bool('AutomaticDisableChannelEnabled') ?? false,
      autoEnable: o?.bool('AutomaticEnableChannelEnabled') ?? false,
      disableThresholdMs: seconds > 0 ? seconds * 1000 : 0,
      disableKeywords: parseKeywords(o?.get('AutomaticDisableKeywords') ?? ''),
    };
  }
}
