;;; anim-mode.el --- Major mode for animc's .anim files, with Eglot -*- lexical-binding: t; -*-

;; Put this directory on `load-path' and (require 'anim-mode): .anim files open in
;; `anim-mode', and M-x eglot (or `eglot-ensure' in `anim-mode-hook') starts `animc lsp'.
;; Highlighting comes from the language server's semantic tokens where the client
;; supports them; the keywords below keep a file readable without it.

;;; Code:

(defgroup anim nil "The .anim animation language." :group 'languages)

(defcustom anim-animc-program "animc"
  "The animc executable, for the language server and for formatting."
  :type 'string :group 'anim)

(defconst anim--keywords
  '("composition" "layer" "shape" "text" "gradient" "replicator" "emitter" "mask"
    "component" "let" "timing" "path" "for" "in" "if" "else" "basic" "keyframes"
    "spring" "group" "motion" "decay" "along" "as" "import"))

(defvar anim-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?/ ". 124b" table)
    (modify-syntax-entry ?* ". 23" table)
    (modify-syntax-entry ?\n "> b" table)
    (modify-syntax-entry ?_ "_" table)
    (modify-syntax-entry ?\" "\"" table)
    table)
  "Syntax table for `anim-mode': // and /* */ comments, strings in double quotes.")

(defvar anim-font-lock-keywords
  `((,(regexp-opt anim--keywords 'symbols) . font-lock-keyword-face)
    ("#[0-9A-Fa-f]\\{3,8\\}\\_>" . font-lock-constant-face)
    ("\\_<\\([A-Za-z_][A-Za-z0-9_.]*\\)\\s-*:" 1 font-lock-variable-name-face)))

;;;###autoload
(define-derived-mode anim-mode prog-mode "anim"
  "Major mode for .anim files; `animc lsp' does the rest through Eglot."
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width 2)
  (setq-local font-lock-defaults '(anim-font-lock-keywords)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.anim\\'" . anim-mode))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '(anim-mode . (lambda (&optional _interactive) (list anim-animc-program "lsp")))))

(provide 'anim-mode)
;;; anim-mode.el ends here
