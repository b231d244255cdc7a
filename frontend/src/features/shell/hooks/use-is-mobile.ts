import { useMediaQuery } from '@mantine/hooks';

/** The mobile layout applies at 600 px wide or less. */
export const MOBILE_BREAKPOINT = 600;

export function useIsMobile(): boolean {
  return useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT}px)`) ?? false;
}
