export { PlaygroundPage } from './components/playground-page';
