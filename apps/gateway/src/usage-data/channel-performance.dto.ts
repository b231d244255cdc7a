import { IsInt, Max, Min } from 'class-validator';
import { Optional, ToInt } from '../shared/dto-fields';

/** The window's bounds (minutes): one row bucket at least, one day at most. */
export const PERFORMANCE_WINDOW_MIN = 5;
export const PERFORMANCE_WINDOW_MAX = 1440;
export const PERFORMANCE_WINDOW_DEFAULT = 60;

/** GET /api/channel/performance. */
export class ChannelPerformanceParams {
  @Optional()
  @ToInt()
  @IsInt()
  @Min(PERFORMANCE_WINDOW_MIN)
  @Max(PERFORMANCE_WINDOW_MAX)
  window?: number;
}
