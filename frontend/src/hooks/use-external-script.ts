import { useEffect, useState } from 'react';

const loaded = new Map<string, Promise<void>>();

function load(src: string): Promise<void> {
  let promise = loaded.get(src);
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        loaded.delete(src);
        reject(new Error(`failed to load ${src}`));
      };
      document.head.appendChild(script);
    });
    loaded.set(src, promise);
  }
  return promise;
}

/** Loads a third-party script once per page (human check, widgets); true when it is ready. */
export function useExternalScript(src: string | null): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!src) return;
    let active = true;
    load(src).then(
      () => active && setReady(true),
      () => active && setReady(false),
    );
    return () => {
      active = false;
    };
  }, [src]);
  return ready;
}
