import { Stack } from '@mantine/core';
import { OptionsHistoryCard } from '@/features/history';
import type { FieldSpec } from '../../utils/option-form';
import { OptionsCard } from './options-card';

const NOTICE: readonly FieldSpec[] = [{ key: 'Notice', kind: 'textarea', rows: 4 }];
const SYSTEM_NAME: readonly FieldSpec[] = [{ key: 'SystemName', kind: 'text' }];
const LOGO: readonly FieldSpec[] = [{ key: 'Logo', kind: 'text' }];
const HOME_PAGE: readonly FieldSpec[] = [{ key: 'HomePageContent', kind: 'textarea', rows: 6 }];
const ABOUT: readonly FieldSpec[] = [{ key: 'About', kind: 'textarea', rows: 6 }];
const FOOTER: readonly FieldSpec[] = [{ key: 'Footer', kind: 'textarea', rows: 3 }];

/** /setting?tab=other: notice, branding and pages; the shell follows through the status query. */
export function OtherTab() {
  return (
    <Stack>
      <OptionsCard name="notice" fields={NOTICE} />
      <OptionsCard name="systemName" fields={SYSTEM_NAME} />
      <OptionsCard name="logo" fields={LOGO} />
      <OptionsCard name="homePage" fields={HOME_PAGE} />
      <OptionsCard name="about" fields={ABOUT} />
      <OptionsCard name="footer" fields={FOOTER} />
      <OptionsHistoryCard />
    </Stack>
  );
}
