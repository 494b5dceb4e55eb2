import type { ComponentType } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { appRoutePattern, appRoutes } from '@hello/contract';
import { AppLayout } from '@/components/layout/app-layout';
import { lazyRoute } from './lazy-route';
import HomeRoute from './routes/home';
import NotFoundRoute from './routes/not-found';

/**
 * The route table (docs/web-app.md, "Pages"). Home and 404 ship with the app; every other page
 * is its own chunk (the about page too: the home page's budget is tight), so the first load carries
 * no forms, zod or pdf.js.
 */
const pages: [path: string, Page: ComponentType][] = [
  [appRoutes.home, HomeRoute],
  [appRoutes.about, lazyRoute(() => import('./routes/about'))],
  [appRoutes.pdfViewer, lazyRoute(() => import('./routes/pdf-viewer'))],
  [appRoutes.downloadPdf, lazyRoute(() => import('./routes/download-pdf'))],
  [appRoutes.printPdf, lazyRoute(() => import('./routes/print-pdf'))],
  [appRoutes.printCurrentPage, lazyRoute(() => import('./routes/print-current-page'))],
  [appRoutes.localNews, lazyRoute(() => import('./routes/local-news'))],
  [appRoutes.login, lazyRoute(() => import('./routes/login'))],
  [appRoutes.logoutToken, lazyRoute(() => import('./routes/logout-token'))],
  [appRoutes.logoutJwt, lazyRoute(() => import('./routes/logout-jwt'))],
  [appRoutes.addLocalNews, lazyRoute(() => import('./routes/add-local-news'))],
  [appRoutes.changePassword, lazyRoute(() => import('./routes/change-password'))],
  [appRoutes.resetPasswordRequest, lazyRoute(() => import('./routes/reset-password-request'))],
  [appRoutes.resetPasswordRequestConfirmed, lazyRoute(() => import('./routes/reset-password-request-confirmed'))],
  [appRoutes.resetNewPassword, lazyRoute(() => import('./routes/reset-new-password'))],
  [appRoutes.register, lazyRoute(() => import('./routes/register'))],
  [appRoutes.userProfile, lazyRoute(() => import('./routes/user-profile'))],
  [appRoutes.news, lazyRoute(() => import('./routes/news'))],
  [appRoutes.sessions, lazyRoute(() => import('./routes/sessions'))],
  [appRoutes.changeEmail, lazyRoute(() => import('./routes/change-email'))],
  [appRoutes.confirmEmail, lazyRoute(() => import('./routes/confirm-email'))],
  [appRoutes.deleteAccount, lazyRoute(() => import('./routes/delete-account'))],
  [appRoutes.twoFactor, lazyRoute(() => import('./routes/two-factor'))],
  [appRoutes.newsItem, lazyRoute(() => import('./routes/news-item'))],
  [appRoutes.editNews, lazyRoute(() => import('./routes/edit-news'))],
];

const patterns = pages.map(([path]) => appRoutePattern(path));

export function AppRoutes() {
  // A page only at its path as the server serves it (the contract's isAppRoute): React Router also
  // matches `/About`, `/about/` or an item's `/news/07`, which the server answers with 404, and so
  // does the app then, before any chunk loads.
  const { pathname } = useLocation();
  const served = patterns.some((pattern) => pattern.test(pathname));
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {served && pages.map(([path, Page]) => <Route key={path} path={path} element={<Page />} />)}
        {/* Any other path: the 404 page (the server also answers it with status 404). */}
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
    </Routes>
  );
}
