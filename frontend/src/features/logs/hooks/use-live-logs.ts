import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useChangeTopic } from '@/hooks/use-change-topic';
import { readString, StorageKey, writeString } from '@/lib/storage';
import { throttle } from '@/utils/throttle';
import { logQueries } from '../api/logs.api';

/** However fast rows arrive (a busy relay), the page refetches at most once per this. */
export const LIVE_REFRESH_MS = 1_000;

/**
 * The log page's live toggle (remembered). On: every `logs` push refetches the shown page,
 * throttled. Off: the page stays as it is under the reader; the pushes only mark the cached
 * pages stale and raise `unseen`, so the next search or page change reads fresh rows.
 */
export function useLiveLogs() {
  const queryClient = useQueryClient();
  const [live, setLiveState] = useState(() => readString(StorageKey.logsLive) === '1');
  const [unseen, setUnseen] = useState(false);
  // Read by the push listener; setLive (the only writer of `live`) keeps it in step at once.
  const liveRef = useRef(live);

  const refresh = useMemo(
    () =>
      throttle(() => {
        void queryClient.invalidateQueries({ queryKey: logQueries.all });
      }, LIVE_REFRESH_MS),
    [queryClient],
  );
  useEffect(() => () => refresh.cancel(), [refresh]);

  useChangeTopic('logs', () => {
    if (liveRef.current) return refresh();
    void queryClient.invalidateQueries({ queryKey: logQueries.all, refetchType: 'none' });
    setUnseen(true);
  });

  const setLive = useCallback(
    (next: boolean) => {
      writeString(StorageKey.logsLive, next ? '1' : '0');
      liveRef.current = next;
      setLiveState(next);
      if (!next) return;
      setUnseen(false);
      refresh();
    },
    [refresh],
  );

  /** Shows what arrived while the toggle was off. */
  const catchUp = useCallback(() => {
    setUnseen(false);
    void queryClient.invalidateQueries({ queryKey: logQueries.all });
  }, [queryClient]);

  return { live, setLive, unseen, catchUp };
}
