import { Injectable } from '@nestjs/common';
import type { PricingResponse, PricingRowDto } from '@tollgate/contracts';
import { usableGroups } from '../accounts/usable-groups';
import { RoutingTable } from '../channels/routing-table';
import { OptionsCache } from '../options/options.cache';
import { numberMap, stringMap } from '../options/option-maps';
import { buildPricingRows, presetOwners, pricingForCaller } from './pricing-rows';

const PRICE_KEYS = ['ModelRatio', 'CompletionRatio', 'ModelPrice', 'SelfUseModeEnabled'] as const;

/** Re-parses an option only when its raw text changed. */
class Parsed<T> {
  private raw: string | undefined;
  private value!: T;
  constructor(private readonly parse: (raw: string) => T) {}
  of(raw: string): T {
    if (raw !== this.raw) {
      this.raw = raw;
      this.value = this.parse(raw);
    }
    return this.value;
  }
}

/**
 * GET /api/pricing from memory only: the routing table's group → models index and the options
 * cache. The rows are rebuilt only when the index is replaced or a price option's text changed;
 * a call otherwise costs a few string comparisons and the per-caller group filter.
 */
@Injectable()
export class PricingView {
  private readonly owners = presetOwners();
  private readonly groupRatio = new Parsed(numberMap);
  private readonly userUsableGroups = new Parsed(stringMap);
  private rows: PricingRowDto[] = [];
  private builtFrom: { served: unknown; raw: string[] } | undefined;

  constructor(
    private readonly routing: RoutingTable,
    private readonly options: OptionsCache,
  ) {}

  /** The answer for a caller whose own group is `ownGroup` ('' when anonymous). */
  forGroup(ownGroup: string): Omit<PricingResponse, 'success' | 'message'> {
    const usable = usableGroups(
      this.userUsableGroups.of(this.options.get('UserUsableGroups')),
      ownGroup,
    );
    return pricingForCaller(
      this.currentRows(),
      this.groupRatio.of(this.options.get('GroupRatio')),
      usable,
    );
  }

  private currentRows(): readonly PricingRowDto[] {
    const served = this.routing.servedModels();
    const raw = PRICE_KEYS.map((key) => this.options.get(key));
    const built = this.builtFrom;
    if (built && built.served === served && raw.every((value, i) => value === built.raw[i]))
      return this.rows;
    const [modelRatio, completionRatio, modelPrice] = raw.slice(0, 3).map(numberMap) as [
      Record<string, number>,
      Record<string, number>,
      Record<string, number>,
    ];
    const selfUseMode = raw[3] === 'true';
    this.rows = buildPricingRows(
      served,
      { modelRatio, completionRatio, modelPrice, selfUseMode },
      this.owners,
    );
    this.builtFrom = { served, raw };
    return this.rows;
  }
}
