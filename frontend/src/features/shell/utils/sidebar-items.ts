import { isAdmin, type StatusDto } from '@tollgate/contracts';
import type { Translation } from '@/locales/zh-cn';
import { isNewYearSeason } from './new-year';

export type NavLabelKey = keyof Translation['nav'];

export interface SidebarItem {
  key: string;
  /** Route; absent for the New Year item, which celebrates instead of navigating. */
  to?: string;
  /** An i18n key under `nav`, or a literal text (chat links are named by the admin). */
  label: { key: NavLabelKey } | { text: string };
  children?: SidebarItem[];
}

interface SidebarContext {
  role: number | undefined;
  status: Pick<
    StatusDto,
    'chats' | 'chat_link' | 'enable_data_export' | 'enable_drawing' | 'enable_task'
  >;
  now: Date;
}

const link = (key: NavLabelKey, to: string): SidebarItem => ({ key, to, label: { key } });

/** Chat submenu: one entry per configured chat link (`Chats` option), else the single ChatLink. */
function chatItem(status: SidebarContext['status']): SidebarItem | null {
  const children = (status.chats ?? []).flatMap((chat, index) =>
    Object.keys(chat).map((name) => ({
      key: `chat-${index}-${name}`,
      to: `/chat/${index}`,
      label: { text: name },
    })),
  );
  if (children.length > 0) return { key: 'chat', label: { key: 'chat' }, children };
  return status.chat_link ? link('chat', '/chat') : null;
}

/** Spec 001 §2: the sidebar in order, each item with its visibility rule. */
export function buildSidebarItems({ role, status, now }: SidebarContext): SidebarItem[] {
  const admin = role !== undefined && isAdmin(role);
  const items: Array<SidebarItem | null | false> = [
    link('playground', '/playground'),
    link('pricing', '/pricing'),
    admin && link('channel', '/channel'),
    chatItem(status),
    link('token', '/token'),
    admin && link('redemption', '/redemption'),
    link('topup', '/topup'),
    admin && link('user', '/user'),
    link('log', '/log'),
    status.enable_data_export && link('detail', '/detail'),
    status.enable_drawing && link('midjourney', '/midjourney'),
    status.enable_task && link('task', '/task'),
    link('setting', '/setting'),
    isNewYearSeason(now) && { key: 'newYear', label: { key: 'newYear' } },
  ];
  return items.filter((item): item is SidebarItem => Boolean(item));
}
