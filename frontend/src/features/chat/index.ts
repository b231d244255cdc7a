export { Chat2LinkPage } from './components/chat2link-page';
export { ChatPage } from './components/chat-page';
export {
  chatServerAddress,
  chatTargets,
  fillChatTemplate,
  type ChatTarget,
} from './utils/chat-links';
