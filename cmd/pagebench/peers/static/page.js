// Draws the lanes, produces on submit, and says data-ready="true" on the
// page's main once it can, as plog's page does once interactive.
(function () {
  "use strict";
  const partitions = [[], [], []];
  let next = 0;

  function partitionOf(key) {
    let h = 0;
    for (const c of key) h = (h * 31 + c.charCodeAt(0)) | 0;
    return Math.abs(h) % partitions.length;
  }

  function draw() {
    const lanes = document.getElementById("lanes");
    lanes.replaceChildren(...partitions.map((records, p) => {
      const lane = document.createElement("div");
      lane.className = "lane";
      const name = document.createElement("b");
      name.textContent = "orders/" + p;
      lane.append(name, ...records.map((r, offset) => {
        const cell = document.createElement("span");
        cell.className = "record";
        cell.textContent = offset + " " + r;
        return cell;
      }));
      return lane;
    }));
  }

  document.getElementById("produce").addEventListener("submit", (e) => {
    e.preventDefault();
    const key = document.getElementById("key").value || "record-" + next++;
    partitions[partitionOf(key)].push(key);
    draw();
  });
  for (const key of ["acct-1", "acct-2", "acct-3", "acct-1"]) partitions[partitionOf(key)].push(key);
  draw();
  document.querySelector("main").dataset.ready = "true";
})();
