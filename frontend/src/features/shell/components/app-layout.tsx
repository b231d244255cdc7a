import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet } from 'react-router';
import { MOBILE_BREAKPOINT, useIsMobile } from '../hooks/use-is-mobile';
import { useSidebarCollapse } from '../hooks/use-sidebar-collapse';
import { Footer } from './footer';
import { HeaderBar } from './header-bar';
import { Sidebar } from './sidebar';

/** The console frame: top bar, sidebar (drawer on mobile, collapsible on desktop), page, footer. */
export function AppLayout() {
  const isMobile = useIsMobile();
  const [mobileOpened, { toggle: toggleMobile, close: closeMobile }] = useDisclosure(false);
  const { collapsed, toggle: toggleCollapsed } = useSidebarCollapse();
  const mini = collapsed && !isMobile;

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{
        width: mini ? 64 : 220,
        breakpoint: MOBILE_BREAKPOINT,
        collapsed: { mobile: !mobileOpened },
      }}
      padding="md"
    >
      <AppShell.Header>
        <HeaderBar isMobile={isMobile} navbarOpened={mobileOpened} onToggleNavbar={toggleMobile} />
      </AppShell.Header>
      <AppShell.Navbar p={mini ? 4 : 'xs'} data-testid="sidebar">
        <Sidebar
          collapsed={mini}
          onToggleCollapse={isMobile ? undefined : toggleCollapsed}
          onNavigate={closeMobile}
        />
      </AppShell.Navbar>
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column' }}>
        <div style={{ flex: 1 }}>
          <Outlet />
        </div>
        <Footer />
      </AppShell.Main>
    </AppShell>
  );
}
