// plogDownloadPNG(name, svg, scale) turns a picture of the playground (the
// SVG package picture draws, app/picture_download.go) into a PNG scale
// times its size (2 for a projector's slides) and offers it as a download
// named name. It runs in the browser alone: the SVG is loaded as an image
// from a data: URL (the page's policy allows images from data:), drawn on a
// canvas, and the canvas's PNG is downloaded. It returns a promise that
// says whether the PNG was made.
(function () {
  "use strict";

  window.plogDownloadPNG = function (name, svg, scale) {
    return new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => {
        const canvas = document.createElement("canvas");
        canvas.width = Math.ceil(img.naturalWidth * scale);
        canvas.height = Math.ceil(img.naturalHeight * scale);
        const g = canvas.getContext("2d");
        g.scale(scale, scale);
        g.drawImage(img, 0, 0);
        canvas.toBlob((blob) => {
          if (!blob) {
            reject(new Error("the browser made no PNG of the picture"));
            return;
          }
          const a = document.createElement("a");
          a.href = URL.createObjectURL(blob);
          a.download = name;
          document.body.appendChild(a);
          a.click();
          a.remove();
          setTimeout(() => URL.revokeObjectURL(a.href), 60000);
          resolve();
        }, "image/png");
      };
      img.onerror = () => reject(new Error("the picture did not load as an image"));
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
    });
  };
})();
