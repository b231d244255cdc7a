import { Tabs } from '@mantine/core';
import { isRoot } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSessionUser } from '@/features/auth';
import { OperationTab } from './options/operation-tab';
import { OtherTab } from './options/other-tab';
import { SystemTab } from './options/system-tab';
import { PersonalTab } from './personal-tab';

const ROOT_TABS = ['operation', 'system', 'other'] as const;
const ROOT_TAB_CONTENT = { operation: OperationTab, system: SystemTab, other: OtherTab } as const;

/** /setting?tab=…: personal for everyone; operation, system and other for the super admin. */
export function SettingPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const user = useSessionUser();
  const root = user !== null && isRoot(user.role);
  const requested = params.get('tab') ?? 'personal';
  const tab = root && (ROOT_TABS as readonly string[]).includes(requested) ? requested : 'personal';

  return (
    <Tabs
      value={tab}
      onChange={(value) => setParams(value && value !== 'personal' ? { tab: value } : {})}
      keepMounted={false}
    >
      <Tabs.List mb="md">
        <Tabs.Tab value="personal">{t('setting.tabs.personal')}</Tabs.Tab>
        {root &&
          ROOT_TABS.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`setting.tabs.${name}`)}
            </Tabs.Tab>
          ))}
      </Tabs.List>
      <Tabs.Panel value="personal">
        <PersonalTab />
      </Tabs.Panel>
      {root &&
        ROOT_TABS.map((name) => {
          const Content = ROOT_TAB_CONTENT[name];
          return (
            <Tabs.Panel key={name} value={name}>
              <Content />
            </Tabs.Panel>
          );
        })}
    </Tabs>
  );
}
