import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/** Opens a table row's "…" menu; resolves to the menu entry named `item`. */
export async function rowMenuItem(row: HTMLElement, item: string): Promise<HTMLElement> {
  await userEvent.click(within(row).getByRole('button', { name: '更多操作' }));
  return screen.findByRole('menuitem', { name: item });
}

/** Opens a table row's "…" menu and picks the entry named `item`. */
export async function chooseRowMenu(row: HTMLElement, item: string): Promise<void> {
  await userEvent.click(await rowMenuItem(row, item));
}
