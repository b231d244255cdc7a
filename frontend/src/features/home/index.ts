export { AboutPage } from './components/about-page';
export { HomePage } from './components/home-page';
