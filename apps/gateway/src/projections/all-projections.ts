import type { Projection } from '@tollgate/read-store';
import { optionsProjection } from './options.projection';
import { uniqueClaimsProjection } from './unique-claims.projection';
import { usersProjection } from './users.projection';

/** Every read model of the gateway; the rebuild CLI and the runners use this one list. */
export const ALL_PROJECTIONS: readonly Projection[] = [
  usersProjection,
  optionsProjection,
  uniqueClaimsProjection,
];
