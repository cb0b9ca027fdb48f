help build
