import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * The add/edit panel follows the path (/channel/add, /channel/edit/:id) over the same list, so a
 * link opens it directly; moving between them keeps the list's search.
 */
export function useChannelPanelRoute() {
  const navigate = useNavigate();
  const location = useLocation();
  const adding = /\/channel\/add\/?$/.test(location.pathname);
  const editMatch = /\/channel\/edit\/(\d+)\/?$/.exec(location.pathname);
  const editingId = editMatch?.[1] ? Number(editMatch[1]) : undefined;

  const open = useCallback(
    (pathname: string) => void navigate({ pathname, search: location.search }),
    [navigate, location.search],
  );
  const add = useCallback(() => open('/channel/add'), [open]);
  const close = useCallback(() => open('/channel'), [open]);
  const edit = useCallback((channelId: number) => open(`/channel/edit/${channelId}`), [open]);
  return { adding, editingId, add, edit, close };
}
