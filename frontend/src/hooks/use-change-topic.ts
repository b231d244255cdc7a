import type { ChangeTopic } from '@tollgate/contracts';
import { useEffect, useRef } from 'react';
import { subscribeChanges } from '@/lib/change-bus';

/** Calls `listener` (its latest version) on every server push of `topic` while mounted. */
export function useChangeTopic(topic: ChangeTopic, listener: () => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(
    () =>
      subscribeChanges((event) => {
        if (event.topic === topic) latest.current();
      }),
    [topic],
  );
}
