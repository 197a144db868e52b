import { Page } from '@strapi/strapi/admin';
import { Route, Routes } from 'react-router-dom';
import { OverviewPage } from './Overview';

export const App = () => (
  <Routes>
    <Route index element={<OverviewPage />} />
    <Route path="*" element={<Page.Error />} />
  </Routes>
);
