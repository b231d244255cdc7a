import { Badge, createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily:
    '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", Roboto, sans-serif',
  components: {
    // Tags carry names (groups, models) whose case matters.
    Badge: Badge.extend({ styles: { root: { textTransform: 'none' } } }),
  },
});
