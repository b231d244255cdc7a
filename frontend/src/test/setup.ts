import '@testing-library/jest-dom/vitest';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { translations } from '@/app/translations';
import { i18n, startI18n } from '@/lib/i18n';

startI18n(translations);

// findBy*/waitFor give up after 1 s by default: too short on a loaded 2-core machine.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks what Mantine measures and listens to.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => undefined;
// Autosizing textareas re-measure when web fonts load.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}
const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);

beforeAll(async () => {
  await i18n.changeLanguage('zh-CN');
});

afterEach(() => {
  cleanup();
  notifications.clean();
  modals.closeAll();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
