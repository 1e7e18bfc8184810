import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Every page of the console, in one place: its path under /console, who may open it, and the
 * module that draws it (loaded when first visited, so the first page downloads only itself).
 * To add a page: write it under pages/<area>/, add a line here and, if it belongs in the
 * navigation, to NAVIGATION below (docs/console.md, "Adding a page").
 */
export interface PageRoute {
  path: string;
  /** `public`: before sign-in (a signed-in user is sent on to the dashboard from sign-in and sign-up only). */
  access: 'public' | 'signed-in';
  page: LazyExoticComponent<ComponentType>;
}

export const ROUTES: readonly PageRoute[] = [
  { path: '/sign-in', access: 'public', page: lazy(() => import('../pages/auth/SignInPage')) },
  { path: '/forgot-password', access: 'public', page: lazy(() => import('../pages/auth/ForgotPasswordPage')) },
  { path: '/reset-password', access: 'public', page: lazy(() => import('../pages/auth/ResetPasswordPage')) },
  { path: '/register', access: 'public', page: lazy(() => import('../pages/auth/AcceptInvitationPage')) },
  { path: '/sign-up', access: 'public', page: lazy(() => import('../pages/auth/SignUpPage')) },
  { path: '/', access: 'signed-in', page: lazy(() => import('../pages/dashboard/DashboardPage')) },
  { path: '/companies', access: 'signed-in', page: lazy(() => import('../pages/companies/CompaniesPage')) },
  { path: '/suppliers', access: 'signed-in', page: lazy(() => import('../pages/suppliers/SuppliersPage')) },
  { path: '/suppliers/:id/products', access: 'signed-in', page: lazy(() => import('../pages/supplier-products/SupplierProductsPage')) },
  { path: '/inventory', access: 'signed-in', page: lazy(() => import('../pages/inventory/InventoryPage')) },
  { path: '/inventory/products/:id', access: 'signed-in', page: lazy(() => import('../pages/inventory/ProductPage')) },
  { path: '/inventory/categories', access: 'signed-in', page: lazy(() => import('../pages/categories/CategoriesPage')) },
  { path: '/inventory/counts', access: 'signed-in', page: lazy(() => import('../pages/counts/CountsPage')) },
  { path: '/inventory/counts/:id', access: 'signed-in', page: lazy(() => import('../pages/counts/CountPage')) },
  { path: '/imports', access: 'signed-in', page: lazy(() => import('../pages/imports/ImportsPage')) },
  { path: '/exports', access: 'signed-in', page: lazy(() => import('../pages/exports/ExportsPage')) },
  { path: '/administration', access: 'signed-in', page: lazy(() => import('../pages/settings/AdministrationPage')) },
  { path: '/account', access: 'signed-in', page: lazy(() => import('../pages/account/AccountPage')) },
];

/** The main navigation, in order; `label` is a key of the common texts (i18n/common.ts). */
export const NAVIGATION = [
  { path: '/', label: 'dashboard' },
  { path: '/companies', label: 'companies' },
  { path: '/suppliers', label: 'suppliers' },
  { path: '/inventory', label: 'inventory' },
  { path: '/imports', label: 'imports' },
  { path: '/exports', label: 'exports' },
  { path: '/administration', label: 'administration' },
  { path: '/account', label: 'account' },
] as const;
