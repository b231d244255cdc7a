import { isAdmin, type StatusDto } from '@tollgate/contracts';
import { chatTargets } from '@/features/chat';
import type { shellZhCN } from '../locales/zh-cn';
import { isNewYearSeason } from './new-year';

export type NavLabelKey = keyof (typeof shellZhCN)['nav'];

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
    'chats' | 'chat_link' | 'chat_link2' | 'enable_data_export' | 'enable_drawing' | 'enable_task'
  >;
  now: Date;
}

const link = (key: NavLabelKey, to: string): SidebarItem => ({ key, to, label: { key } });

/**
 * Chat submenu: one entry per configured chat link (`Chats` option), each opening /chat/{index};
 * with `Chats` empty, the single legacy ChatLink item. Unreadable chat data: no chat item.
 */
function chatItem(status: SidebarContext['status']): SidebarItem | null {
  const targets = chatTargets(status);
  if (targets === null) return null;
  if (Array.isArray(status.chats) && status.chats.length > 0) {
    const children = targets.map((target, index) => ({
      key: `chat-${index}-${target.name}`,
      to: `/chat/${index}`,
      label: { text: target.name },
    }));
    return { key: 'chat', label: { key: 'chat' }, children };
  }
  return status.chat_link ? link('chat', '/chat') : null;
}

/**
 * The sidebar in order, each item with its visibility rule. A visitor who is not signed in sees
 * only the public pages (pricing, chat links): every other page would send them to the login.
 */
export function buildSidebarItems({ role, status, now }: SidebarContext): SidebarItem[] {
  const signedIn = role !== undefined;
  const admin = signedIn && isAdmin(role);
  const items: Array<SidebarItem | null | false> = [
    signedIn && link('playground', '/playground'),
    link('pricing', '/pricing'),
    admin && link('channel', '/channel'),
    chatItem(status),
    signedIn && link('token', '/token'),
    admin && link('redemption', '/redemption'),
    signedIn && link('topup', '/topup'),
    admin && link('user', '/user'),
    signedIn && link('log', '/log'),
    signedIn && status.enable_data_export && link('detail', '/detail'),
    signedIn && status.enable_drawing && link('midjourney', '/midjourney'),
    signedIn && status.enable_task && link('task', '/task'),
    signedIn && link('setting', '/setting'),
    isNewYearSeason(now) && { key: 'newYear', label: { key: 'newYear' } },
  ];
  return items.filter((item): item is SidebarItem => Boolean(item));
}
