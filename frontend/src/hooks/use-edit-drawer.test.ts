import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DRAWER_RESET_MS, useEditDrawer } from './use-edit-drawer';

describe('useEditDrawer (the form resets 500 ms after closing)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps the edited row while the drawer slides out, then forgets it', () => {
    const { result } = renderHook(() => useEditDrawer<{ id: number }>());
    act(() => result.current.open({ id: 7 }));
    expect(result.current).toMatchObject({ opened: true, item: { id: 7 }, key: 1 });

    act(() => result.current.close());
    expect(result.current).toMatchObject({ opened: false, item: { id: 7 } });
    act(() => vi.advanceTimersByTime(DRAWER_RESET_MS - 1));
    expect(result.current.item).toEqual({ id: 7 });
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.item).toBeNull();
  });

  it('a drawer opened again before the reset keeps its new row and a new form key', () => {
    const { result } = renderHook(() => useEditDrawer<{ id: number }>());
    act(() => result.current.open({ id: 7 }));
    act(() => result.current.close());
    act(() => result.current.open({ id: 8 }));
    act(() => vi.advanceTimersByTime(DRAWER_RESET_MS * 2));
    expect(result.current).toMatchObject({ opened: true, item: { id: 8 }, key: 2 });
  });
});
