import { appRoutes } from '@hello/contract';

export interface NavLinkItem {
  to: string;
  label: string;
}
export interface NavGroup {
  title: string;
  links: NavLinkItem[];
}

/** The header's navigation, grouped so it stays scannable on a phone. */
export const navGroups: NavGroup[] = [
  {
    title: 'General',
    links: [
      { to: appRoutes.home, label: 'Home' },
      { to: appRoutes.about, label: 'About' },
    ],
  },
  {
    title: 'News',
    links: [
      { to: appRoutes.localNews, label: 'Local news' },
      { to: appRoutes.news, label: 'All news' },
      { to: appRoutes.addLocalNews, label: 'Add news' },
    ],
  },
  {
    title: 'PDF',
    links: [
      { to: appRoutes.pdfViewer, label: 'Viewer' },
      { to: appRoutes.downloadPdf, label: 'Download' },
      { to: appRoutes.printPdf, label: 'Print PDF' },
      { to: appRoutes.printCurrentPage, label: 'Print page' },
    ],
  },
  {
    title: 'Account',
    links: [
      { to: appRoutes.login, label: 'Login' },
      { to: appRoutes.register, label: 'Register' },
      { to: appRoutes.userProfile, label: 'Profile' },
      { to: appRoutes.sessions, label: 'Devices' },
      { to: appRoutes.changePassword, label: 'Change password' },
      { to: appRoutes.changeEmail, label: 'Change e-mail' },
      { to: appRoutes.twoFactor, label: 'Two-step sign-in' },
      { to: appRoutes.resetPasswordRequest, label: 'Reset password' },
      { to: appRoutes.logoutToken, label: 'Logout (token)' },
      { to: appRoutes.logoutJwt, label: 'Logout (JWT)' },
    ],
  },
];
