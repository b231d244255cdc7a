import { authLocales } from '@/features/auth/locales';
import { channelsLocales } from '@/features/channels/locales';
import { chatLocales } from '@/features/chat/locales';
import { dashboardLocales } from '@/features/dashboard/locales';
import { historyLocales } from '@/features/history/locales';
import { homeLocales } from '@/features/home/locales';
import { logsLocales } from '@/features/logs/locales';
import { playgroundLocales } from '@/features/playground/locales';
import { pricingLocales } from '@/features/pricing/locales';
import { redemptionsLocales } from '@/features/redemptions/locales';
import { settingLocales } from '@/features/setting/locales';
import { setupLocales } from '@/features/setup/locales';
import { shellLocales } from '@/features/shell/locales';
import { tasksLocales } from '@/features/tasks/locales';
import { tokensLocales } from '@/features/tokens/locales';
import { usersLocales } from '@/features/users/locales';
import { walletLocales } from '@/features/wallet/locales';
import { mergeLocales } from '@/lib/locales';
import { sharedLocales } from '@/locales/shared';

/**
 * Every text of the console: each feature registers its own locales here (imported straight from
 * its `locales/` folder, so a lazily loaded feature's code stays out of the start-up files).
 */
export const translations = mergeLocales(
  sharedLocales,
  shellLocales,
  authLocales,
  setupLocales,
  homeLocales,
  settingLocales,
  usersLocales,
  channelsLocales,
  tokensLocales,
  redemptionsLocales,
  walletLocales,
  logsLocales,
  playgroundLocales,
  historyLocales,
  pricingLocales,
  dashboardLocales,
  chatLocales,
  tasksLocales,
);

/** The shape every language provides; `i18next.d.ts` makes `t()` check its keys against it. */
export type Translation = (typeof translations)['zh-CN'];
