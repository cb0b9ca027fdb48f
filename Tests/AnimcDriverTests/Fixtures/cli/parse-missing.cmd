parse nowhere.anim --dump
