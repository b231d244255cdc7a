import { queryOptions } from '@tanstack/react-query';
import { http } from '@/lib/http';

/** Admin-written pages (options HomePageContent, About, Notice): public, plain strings. */
const contentQuery = (name: 'home_page_content' | 'about' | 'notice') =>
  queryOptions({
    queryKey: ['content', name] as const,
    queryFn: ({ signal }) => http.get<string>(`/api/${name}`, undefined, signal),
    // Missing content only means the default page shows.
    meta: { silent: true },
    staleTime: 60_000,
  });

export const contentQueries = {
  all: ['content'] as const,
  home: () => contentQuery('home_page_content'),
  about: () => contentQuery('about'),
  notice: () => contentQuery('notice'),
};
