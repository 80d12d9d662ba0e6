import { createRoot } from "react-dom/client";

function Placeholder() {
  return <h1>loopscope</h1>;
}

createRoot(document.getElementById("root")!).render(<Placeholder />);
